// The editor grammars on the shipped contracts, as their hosts load them:
// the TextMate grammar through vscode-textmate and Oniguruma (VS Code's own
// engine), the highlight.js grammar through highlight.js 10 (mdBook's).
//
// Run by .ci/run with the three packages installed in a temporary folder:
//   NODE_PATH=<folder>/node_modules node editors/test/grammars.test.cjs
"use strict";

const assert = require("assert");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..", "..");
const read = (p) => fs.readFileSync(path.join(root, p), "utf8");
const paper = read("examples/paper_web_search.stpc");

// Every ```stpc block of the book.
function bookSnippets() {
  const dir = path.join(root, "book", "src");
  const out = [];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith(".md")) continue;
    const text = fs.readFileSync(path.join(dir, f), "utf8");
    const re = /```stpc[^\n]*\n([\s\S]*?)```/g;
    let m;
    while ((m = re.exec(text))) out.push([f, m[1]]);
  }
  return out;
}

async function textmate() {
  const vsctm = require("vscode-textmate");
  const oniguruma = require("vscode-oniguruma");
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (s) => new oniguruma.OnigScanner(s),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () =>
      vsctm.parseRawGrammar(
        read("editors/vscode/syntaxes/stpc.tmLanguage.json"),
        "stpc.tmLanguage.json"
      ),
  });
  const grammar = await registry.loadGrammar("source.stpc");
  assert(grammar, "the TextMate grammar loads");

  // Scopes of each token of a text, as [text, innermost scope].
  function tokens(text) {
    let stack = vsctm.INITIAL;
    const out = [];
    for (const line of text.split("\n")) {
      const r = grammar.tokenizeLine(line, stack);
      for (const t of r.tokens) {
        out.push([line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]]);
      }
      stack = r.ruleStack;
    }
    return out;
  }
  const scopeOf = (toks, text) => {
    const hit = toks.find(([t]) => t.trim() === text);
    assert(hit, `token ${text} not found`);
    return hit[1];
  };
  const t = tokens(paper);
  assert.match(scopeOf(t, "contract"), /^storage\.type/);
  assert.match(scopeOf(t, "web_default"), /^entity\.name\.type/);
  assert.match(scopeOf(t, "rewrite"), /^keyword\.control\.action/);
  assert.match(scopeOf(t, "scrub"), /^entity\.name\.function\.rule/);
  assert.match(scopeOf(t, "0.7"), /^constant\.numeric/);
  assert.match(scopeOf(t, "std::labels"), /^entity\.name\.namespace/);
  assert(t.some(([, s]) => s.startsWith("comment.line")), "comments");
  assert(t.some(([, s]) => s.startsWith("string.quoted")), "strings");
  // Raw strings keep what looks like a comment or a quote inside them.
  const raw = tokens('pattern r#"a "//quoted" \\d"#;');
  assert(raw.every(([text, s]) => !s.startsWith("comment")), JSON.stringify(raw));
  // Every book snippet tokenizes with no illegal token.
  for (const [file, snippet] of bookSnippets()) {
    for (const [text, s] of tokens(snippet)) {
      assert(!s.startsWith("invalid"), `${file}: ${text} is ${s}`);
    }
  }
  console.log("TextMate grammar: ok");
}

function highlightjs() {
  const hljs = require("highlight.js");
  hljs.registerLanguage("stpc", require(path.join(root, "book", "stpc-highlight.js")));
  const html = hljs.highlight("stpc", paper, false).value;
  const has = (cls, text) =>
    assert(html.includes(`<span class="hljs-${cls}">${text}</span>`), `${cls} ${text}`);
  has("keyword", "contract");
  has("title", "web_default");
  has("built_in", "rewrite");
  has("title", "scrub");
  has("number", "0.7");
  assert(html.includes('<span class="hljs-comment">'), "comments");
  assert(html.includes('<span class="hljs-string">'), "strings");
  // Every book snippet highlights without an illegal token.
  let n = 0;
  for (const [file, snippet] of bookSnippets()) {
    const r = hljs.highlight("stpc", snippet, false);
    assert(!r.illegal, `${file}: illegal token`);
    assert(r.value.includes("hljs-"), `${file}: nothing highlighted`);
    n++;
  }
  assert(n > 10, `book snippets found: ${n}`);
  console.log(`highlight.js grammar: ok (${n} book snippets)`);
}

textmate()
  .then(highlightjs)
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
