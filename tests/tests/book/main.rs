//! The book's checks, one test target: every `stpc` snippet, link and
//! include, and the generated standard-library chapter.

mod navigation;
mod snippets;
mod stdlib_chapter;
