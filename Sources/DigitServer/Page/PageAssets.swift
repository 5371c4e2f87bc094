/// The page served at `/` (a placeholder until the page lands).
enum PageAssets {
    static let indexHTML = #"""
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>digits</title>
    <link rel="stylesheet" href="/app.css"></head>
    <body><h1>digits</h1><script src="/app.js"></script></body></html>
    """#
    static let appJS = #"""
    "use strict";
    """#
    static let appCSS = #"""
    body { font-family: sans-serif; }
    """#
}
