// highlight.js grammar for Speculative Tool Privacy Contracts (`stpc`).
//
// The book loads it after mdBook's own highlighter has run, registers the
// language and highlights every ```stpc block again. It works with
// highlight.js 10 (mdBook's) and 11, in the browser (global `hljs`) and in
// Node (`module.exports`), where the test suite checks it against the
// grammar's keywords. Keep the keyword lists in step with
// grammar/stpc.pest (a test checks that every `kw_*` word is here).
(function () {
  "use strict";

  function stpc(hljs) {
    var IDENT = "[A-Za-z_][A-Za-z0-9_]*";
    return {
      name: "stpc",
      aliases: ["stpc"],
      keywords: {
        $pattern: IDENT,
        keyword:
          "use lattice for args destination destinations enum channels observer external internal " +
          "sees host url collection label labels observed by tool tools effect list substitute set on " +
          "promote reuse reissue lexicon labeler labelers terms parts field pattern entity fallback " +
          "transform replace with without redact coarsen time to constant contract extends forbid at " +
          "threshold budget per task counting audit none raw scrub after commit decide using " +
          "allowed undeclared exhausted missing available mode confidence test call branch dispatches of expect " +
          "when unless dispatched",
        built_in: "allow block defer rewrite shadow",
        literal: "true false",
        operator: "and or not in"
      },
      contains: [
        hljs.C_LINE_COMMENT_MODE,
        hljs.C_BLOCK_COMMENT_MODE,
        // Raw strings hold regular expressions: r"..." and r#"..."#.
        { className: "regexp", begin: /r(#*)"/, end: /"#*/, relevance: 0 },
        {
          className: "string",
          begin: /"/,
          end: /"/,
          illegal: /\n/,
          contains: [{ className: "subst", begin: /\\(?:["\\ntr0]|u\{[0-9A-Fa-f]{1,6}\})/ }]
        },
        { className: "number", begin: /-?\b\d+(?:\.\d+)?\b/, relevance: 0 },
        // A rule's name before its action: `scrub: rewrite ...`.
        {
          className: "title",
          begin: new RegExp(IDENT + "(?=\\s*:\\s*(?:allow|block|defer|rewrite|shadow)\\b)"),
          relevance: 0
        },
        // The declared name after a declaration keyword.
        {
          className: "title",
          begin: new RegExp(
            "(?<=\\b(?:lattice|enum|observer|destination|tool|substitute|lexicon|labeler|transform|set|contract|budget)\\s+)" +
              IDENT
          ),
          relevance: 0
        },
        { className: "operator", begin: /==|!=|<=|>=|<|>|\+=/, relevance: 0 }
      ]
    };
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = stpc;
  }
  if (typeof window !== "undefined" && typeof window.hljs !== "undefined") {
    var hljs = window.hljs;
    hljs.registerLanguage("stpc", stpc);
    var blocks = document.querySelectorAll("code.language-stpc");
    for (var i = 0; i < blocks.length; i++) {
      var block = blocks[i];
      // mdBook has already run once and found no grammar: start again
      // from the text.
      block.textContent = block.textContent;
      block.classList.remove("hljs");
      if (typeof hljs.highlightElement === "function") {
        hljs.highlightElement(block);
      } else {
        hljs.highlightBlock(block);
      }
    }
  }
})();
