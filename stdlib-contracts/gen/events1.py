# (tool, args, destination, arg_labels, dest_label, note)
P, PE, S, I = "public", "personal", "sensitive", "intent_revealing"
DP, DT, DS, DR, DF = "public", "tenant_internal", "sensitive", "regulated", "forbidden"
E = []
def ws(q, lab, dest="api.brave.com", dl=DP, note="", **extra):
    args = {"q": q}; labs = {"q": lab}
    for k, v in extra.items():
        args[k] = v; labs[k] = P
    E.append(("web_search", args, dest, labs, dl, note))

# ---------------- web search: public general knowledge
for q in ["weather in Lisbon tomorrow", "best pizza in Naples", "how to make sourdough starter",
          "python list comprehension examples", "rust borrow checker explained", "train times Berlin to Hamburg",
          "world cup 2026 host cities", "how tall is mount everest", "convert 5 miles to km",
          "history of the printing press", "best hiking trails in the alps", "how to change a bike tire",
          "population of Canada 2024", "symptoms of a flat car battery", "how do vaccines get approved by regulators",
          "what is the capital of australia", "ikea malm assembly instructions", "cheap flights to rome in may",
          "react useEffect cleanup function", "postgres jsonb index performance", "nobel prize physics 2023",
          "how to cite a website in APA", "photosynthesis for kids", "best budget mechanical keyboard"]:
    ws(q, P)
ws("wetter morgen in München", P, "api.duckduckgo.com", note="non-english")
ws("receta de tortilla de patatas", P, "api.duckduckgo.com", note="non-english")
ws("horaires musée du louvre", P, note="non-english")
ws("mejores playas de Mallorca", P, note="non-english")
ws("Öffnungszeiten Bürgeramt Kreuzberg", P, note="non-english")
ws("comment faire une pâte brisée", P, "api.duckduckgo.com", note="non-english")
# ---------------- hard negatives
for q in ["health bar regeneration mod skyrim", "kubernetes liveness probe health check endpoint",
          "legal tender status of bitcoin in el salvador", "redis cache eviction policy allkeys-lru",
          "why are my pods evicted kubernetes", "technical debt prioritization framework",
          "stock market index today dow jones", "the great depression causes and effects",
          "tropical depression forecast atlantic", "svg stroke width css", "ci job fired twice on merge",
          "cron job every 5 minutes syntax", "kill the process on port 8080 linux", "etcd lease keepalive grpc",
          "dhcp lease time recommended", "basketball court dimensions", "free trial period netflix",
          "separation of concerns in software design", "current affairs quiz", "hackathon ideas for students",
          "life hacks for small kitchens", "fraud detection model xgboost tutorial", "cancer zodiac sign traits",
          "lithium ion battery degradation", "moore's law is dead", "default argument values in python",
          "national debt of the united states", "bipolar transistor amplifier circuit", "krebs cycle steps",
          "cheat sheet for git commands", "custodial wallet vs non custodial", "breast cancer wisconsin dataset sklearn",
          "unit test termination condition for recursion", "jailbreak iphone ios 17", "murphy's law examples"]:
    ws(q, P, note="hard negative")
ws("dette technique refactoring priorités", P, note="hard negative, non-english")
ws("separación de poderes constitución española", P, note="hard negative, non-english")
