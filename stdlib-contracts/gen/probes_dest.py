# Dev probes for std_destinations (undeclared destinations): (destination, expected).
DP = [
 ("www.healthline.com", "sensitive"), ("www.verywellhealth.com", "sensitive"), ("www.drugs.com", "sensitive"), ("medlineplus.gov", "regulated"),
 ("www.cdc.gov", "regulated"), ("www.nimh.nih.gov", "regulated"), ("api.nhs.uk", "regulated"), ("www.noaa.gov", "public"),
 ("www.census.gov", "public"), ("www.nps.gov", "public"), ("www.usgs.gov", "public"), ("www.cancerresearchuk.org", "sensitive"),
 ("www.alz.org", "public"), ("www.diabetes.org", "sensitive"), ("www.psychcentral.com", "sensitive"), ("www.addictioncenter.com", "sensitive"),
 ("www.legalaid.org", "sensitive"), ("www.justia.com", "sensitive"), ("www.lawyers.com", "sensitive"), ("www.divorce.com", "sensitive"),
 ("www.nerdwallet.com", "public"), ("www.debtcollectionhelp.org", "sensitive"), ("www.creditkarma.com", "sensitive"),
 ("api.wellsfargo.com", "regulated"), ("online.citi.com", "public"), ("api.bankofamerica.com", "regulated"), ("www.paypal.com", "regulated"),
 ("www.foodbank.org", "public"), ("www.bankrate.com", "public"), ("api.revolut.com", "regulated"), ("www.aetna.com", "regulated"),
 ("www.doctolib.fr", "regulated"), ("www.zocdoc.com", "regulated"), ("www.ssa.gov", "regulated"), ("www.uscis.gov", "regulated"),
 ("www.tenantsrights.org", "sensitive"), ("www.shelterhousing.org", "sensitive"), ("www.evictionlab.org", "sensitive"),
 ("www.stalkingawareness.org", "public"), ("www.identitytheft.gov", "regulated"), ("www.loveisrespect.org", "public"),
 ("hastebin.skyra.pw", "forbidden"), ("paste.rs", "forbidden"), ("pastie.io", "forbidden"), ("abc.ngrok-free.app", "forbidden"),
 ("x1y2.requestcatcher.com", "forbidden"), ("www.fastpeoplesearch.com", "forbidden"), ("www.radaris.com", "forbidden"),
 ("transfer.sh", "forbidden"), ("file.io", "forbidden"), ("tmpfiles.org", "forbidden"),
 ("confluence.internal", "tenant_internal"), ("git.corp.example", "tenant_internal"), ("172.16.4.2", "tenant_internal"),
 ("acme.atlassian.net", "tenant_internal"), ("acme.service-now.com", "tenant_internal"), ("api.github.com", "public"),
 ("www.toothpaste-reviews.com", "public"), ("www.robinhood-bikes.example", "public"), ("www.bookbank.example", "public"),
 # collections
 ("oncology-notes", "regulated"), ("cardiology", "regulated"), ("pediatrics-intake", "regulated"), ("mental-health-eap", "regulated"),
 ("psychotherapy-records", "regulated"), ("hr-grievances", "sensitive"), ("payroll-us", "sensitive"), ("comp-bands", "sensitive"),
 ("legal-discovery", "sensitive"), ("litigation-holds", "sensitive"), ("finance-close", "sensitive"), ("security-vulns", "sensitive"),
 ("red-team-findings", "sensitive"), ("threat-models", "sensitive"), ("tenancy-disputes", "sensitive"), ("debt-recovery", "sensitive"),
 ("visa-cases", "regulated"), ("immigration-docs", "regulated"), ("patient-feedback", "regulated"), ("clinic-schedules", "regulated"),
 ("data-migration", "tenant_internal"), ("epic-backlog", "tenant_internal"), ("design-docs", "tenant_internal"), ("api-reference", "tenant_internal"),
 ("customer-onboarding", "tenant_internal"), ("mobile-team", "tenant_internal"), ("service-health", "tenant_internal"),
 ("multi-tenant-config", "tenant_internal"), ("sales-emea", "tenant_internal"), ("krankmeldungen", "regulated"), ("gehaltsabrechnung", "sensitive"),
 ("nominas-2024", "sensitive"), ("bajas-medicas", "regulated"), ("arrets-maladie", "regulated"), ("contentieux-prudhommes", "sensitive"),
 ("rechtsabteilung", "sensitive"), ("expedientes-disciplinarios", "sensitive"), ("steuerunterlagen", "sensitive"),
 ("https://api.corp.example/api/hr/complaints", "sensitive"), ("https://intranet.corp.example/oncology/cases", "regulated"),
 ("https://api.corp.example/api/v2/orders", "tenant_internal"), ("https://hr.corp.example/api/payroll/run", "sensitive"),
]
DP += [
 ("www.webmd.com", "sensitive"), ("www.mentalhealth.org.uk", "sensitive"), ("www.nolo.com", "sensitive"), ("www.lawdepot.com", "public"),
 ("www.avvo.com", "sensitive"), ("api.legalaid.example", "sensitive"), ("www.consumerfinance.gov", "regulated"), ("www.hud.gov", "regulated"),
 ("www.gesundheit.de", "sensitive"), ("www.netdoktor.de", "public"), ("www.apotheken-umschau.de", "public"), ("www.cuidateplus.com", "public"),
 ("www.service-public.fr", "public"), ("www.impots.gouv.fr", "regulated"), ("www.agenciatributaria.es", "regulated"), ("www.bundesagentur.de", "public"),
 ("api.stripe.com", "public"), ("api.coinbase.com", "regulated"), ("www.sparkasse.de", "regulated"), ("www.ing.de", "public"),
 ("www.deutsche-bank.de", "regulated"), ("www.caixabank.es", "regulated"), ("www.credit-agricole.fr", "sensitive"), ("www.monzo.com", "regulated"),
 ("www.grindr.com", "sensitive"), ("www.tinder.com", "sensitive"), ("www.match.com", "sensitive"), ("www.eharmony.com", "public"),
 ("pastebin.pl", "forbidden"), ("rentry.co", "public"), ("paste2.org", "forbidden"), ("webhook.site", "forbidden"), ("en4abc.x.pipedream.net", "forbidden"),
 ("www.whitepages.com", "forbidden"), ("www.peoplefinder.com", "forbidden"), ("www.truthfinder.com", "forbidden"),
 ("grafana.internal", "tenant_internal"), ("10.1.2.3", "tenant_internal"), ("jira.corp.example", "tenant_internal"),
 ("docs.python.org", "public"), ("www.npmjs.com", "public"), ("stackoverflow.com", "public"), ("news.ycombinator.com", "public"),
 ("hr_leave", "sensitive"), ("legal_contracts", "sensitive"), ("mental_health_notes", "regulated"), ("payroll2024", "sensitive"),
 ("oncology_trials", "regulated"), ("engineering_wiki", "tenant_internal"), ("it-support", "tenant_internal"), ("marketing-assets", "tenant_internal"),
 ("employee-medical", "regulated"), ("workplace-investigations", "sensitive"), ("harassment-reports", "sensitive"), ("benefits", "sensitive"),
 ("family-leave", "sensitive"), ("relocation-visas", "regulated"), ("expense-reports", "tenant_internal"), ("board-minutes", "sensitive"),
 ("https://api.corp.example/api/benefits/health-claims", "regulated"), ("https://api.corp.example/api/payroll/2024", "sensitive"),
 ("https://api.corp.example/api/tickets", "tenant_internal"), ("https://api.corp.example/legal/holds", "sensitive"),
]

if __name__ == "__main__":
    import json, subprocess
    ev = [{"tool": "t", "args": {}, "destination": d} for d, _ in DP]
    out = subprocess.run(['/tmp/labsim/target/release/labsim', '/tmp/stpcgen/table.json'], input="\n".join(json.dumps(e) for e in ev), capture_output=True, text=True)
    if out.returncode: raise SystemExit(out.stderr[:2000])
    res = [json.loads(l)['dest_label'] for l in out.stdout.splitlines()]
    bad = [(d, g, p) for (d, g), p in zip(DP, res) if g != p]
    for d, g, p in bad: print(f"  {g[:6]:6} <- {p[:6]:6} {d}")
    print(f"dest probes: {len(DP)-len(bad)}/{len(DP)} ok")
