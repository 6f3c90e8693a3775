// A JavaScript agent using `stpc serve` with nothing but `fetch` (Node 18
// or later): a committed call is dispatched and completed, a speculative
// one is held until its branch is promoted, another branch is abandoned.
// The test suite runs it against the time gateway's contract
// (proxy/tests/test_serve.py) and checks what it prints.
//
//   node proxy/examples/agent.mjs http://127.0.0.1:8787

const url = process.argv[2] ?? "http://127.0.0.1:8787";

async function post(path, body) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${path}: ${response.status} ${JSON.stringify(await response.json())}`);
  }
  return response.json();
}

const decide = (event) => post("/v1/decide", { task: "agent", destination: "time_server", ...event });

// What the agent would do with a decision.
function act(d) {
  switch (d.outcome) {
    case "dispatch":
      return `send ${JSON.stringify(d.arguments)} to ${d.destination}`;
    case "answer":
      return `use the local result ${JSON.stringify(d.result)}`;
    case "held":
      return `wait (call ${d.seq} is held)`;
    default:
      return `never send (${d.error.message})`;
  }
}

const log = [];
const committed = await decide({
  tool: "get_current_time", args: { timezone: "Europe/Lisbon" }, mode: "committed",
});
log.push({ step: "committed", action: committed.action, todo: act(committed) });
await post("/v1/tasks/agent/complete", { seq: committed.seq });

const likely = await decide({
  tool: "get_current_time", args: { timezone: "Asia/Tokyo" },
  mode: "speculative", confidence: 0.5, branch: "b2",
});
log.push({ step: "speculative", action: likely.action, todo: act(likely) });
const unlikely = await decide({
  tool: "get_current_time", args: { timezone: "America/Lima" },
  mode: "speculative", confidence: 0.5, branch: "b3",
});

const promoted = await post("/v1/tasks/agent/promote", { branch: "b2" });
for (const d of promoted.released) {
  log.push({ step: "released", seq: d.seq, action: d.action, todo: act(d) });
}
const abandoned = await post("/v1/tasks/agent/abandon", { branch: "b3" });
log.push({ step: "abandoned", dropped: abandoned.dropped, held: unlikely.seq });
await post("/v1/tasks/agent/end", {});

console.log(JSON.stringify(log));
