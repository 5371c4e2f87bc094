extension PageAssets {
    /// GET /: the page. Its script and style are /app.js and /app.css (no
    /// inline code: the Content-Security-Policy forbids it).
    static let indexHTML = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>digits: draw a digit, point a camera, drop a photo</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header class="top">
  <h1>digits</h1>
  <p>Draw a digit, point a camera at one, or drop a photo. The model runs on this server; nothing leaves it.</p>
</header>

<div id="error" class="error" role="alert" hidden></div>

<main>
  <fieldset class="mode">
    <legend>Read</legend>
    <input type="radio" name="mode" id="mode-digit" value="digit" checked>
    <label for="mode-digit">one digit</label>
    <input type="radio" name="mode" id="mode-number" value="number">
    <label for="mode-number">a number</label>
  </fieldset>

  <section class="card draw" aria-labelledby="draw-title">
    <h2 id="draw-title">Draw</h2>
    <div class="draw-body">
      <div class="pad-column">
        <canvas id="pad" width="480" height="360" role="img"
          aria-label="Drawing pad: draw a digit with a mouse, a pen or a finger. The answer follows it."></canvas>
        <div class="row">
          <button type="button" id="clear">Clear</button>
          <span class="hint" id="pad-hint">Draw with a mouse, a pen or a finger; the answer comes when you lift it.</span>
        </div>
      </div>
      <div id="answer" class="answer" aria-live="polite" aria-atomic="true" data-state="idle" data-answered="0">
        <div class="answer-main">
          <div id="answer-digit" class="big">?</div>
          <div class="answer-text">
            <div id="answer-confidence" class="confidence"></div>
            <div id="answer-status" class="status">Draw something.</div>
            <ul id="answer-warnings" class="warnings"></ul>
          </div>
        </div>
        <figure class="seen" id="preprocessed-figure">
          <canvas id="preprocessed" width="28" height="28" class="pixels" role="img"
            aria-label="The 28 by 28 picture the model saw"></canvas>
          <figcaption>what the model saw</figcaption>
        </figure>
      </div>
    </div>
  </section>

  <section class="card camera" aria-labelledby="camera-title">
    <h2 id="camera-title">Camera</h2>
    <div class="row">
      <button type="button" id="camera-start">Use camera</button>
      <button type="button" id="camera-stop" disabled>Stop</button>
      <span class="hint" id="camera-state">Hold a digit in the square.</span>
    </div>
    <div class="video-box" id="video-box" hidden>
      <video id="video" muted playsinline aria-label="Camera picture"></video>
      <div class="roi" id="roi" aria-hidden="true"></div>
    </div>
    <div class="live" id="live" hidden>
      <div class="live-answer" aria-live="polite" aria-atomic="true">
        <div id="live-digit" class="big">–</div>
        <div id="live-confidence" class="confidence"></div>
      </div>
      <figure class="seen">
        <canvas id="live-preprocessed" width="28" height="28" class="pixels" role="img"
          aria-label="The 28 by 28 picture the model saw in the latest frame"></canvas>
        <figcaption>latest frame</figcaption>
      </figure>
      <div class="history">
        <span class="hint">Seen:</span>
        <ol id="live-history" aria-label="Digits seen, oldest first"></ol>
      </div>
    </div>
  </section>

  <section class="card photos" aria-labelledby="photos-title">
    <h2 id="photos-title">Photos</h2>
    <label class="drop" id="drop-zone" for="upload">
      <span>Drop photos here, or <span class="link">choose files</span></span>
      <span class="hint">PNG, JPEG or PNM; each is read on its own.</span>
    </label>
    <input type="file" id="upload" accept="image/*" multiple class="visually-hidden">
    <ul id="uploads" class="uploads" aria-live="polite"></ul>
  </section>

</main>

<footer class="bottom">
  <p>The API: <a href="/openapi.json">/openapi.json</a> · <a href="/healthz">/healthz</a> · <a href="/metrics">/metrics</a></p>
</footer>
</body>
</html>
"""#
}
