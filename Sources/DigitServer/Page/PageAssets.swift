// The web page that `digits serve` serves at /, /app.js and /app.css: plain
// HTML, CSS and JavaScript, embedded in the binary so that the page works
// offline and needs no build step. The router serves them under a
// Content-Security-Policy of "default-src 'self'; img-src 'self' data: blob:;
// media-src 'self' blob:; connect-src 'self'", so the page has no inline
// script or style, no event-handler attribute and no eval.
//
// The ids that Tests/Browser reads are part of the page's contract:
// #answer (data-state, data-answered), #answer-digit, #answer-confidence,
// #answer-status, #answer-warnings, #preprocessed, #live-digit,
// #live-history, #live-preprocessed, #uploads.

/// The page's three files; the texts are in PageHTML.swift, PageScript.swift
/// and PageStyle.swift.
enum PageAssets {}
