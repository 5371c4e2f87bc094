extension PageAssets {
    /// GET /app.js: the drawing pad, the camera over the WebSocket and the
    /// photo uploads. No framework, no eval, nothing fetched from elsewhere.
    static let appJS = #"""
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);

  // The drawing is a dark digit on light paper; the server finds the
  // polarity itself, so either would do.
  const PAPER = "#fbfaf6";
  const INK = "#1d2433";
  // Stroke width, as a fraction of the pad's width.
  const STROKE = 0.05;
  // The pad's height over its width (its CSS keeps the same ratio).
  const ASPECT = 3 / 4;
  // The drawing is sent at this size, whatever the screen, so that the same
  // strokes give the same picture on every device.
  const EXPORT_WIDTH = 320;
  // Wait this long after the pen is lifted before reading the drawing, so
  // that a digit of several strokes is read once.
  const SEND_DELAY_MS = 300;
  // Camera: at most one frame every FRAME_INTERVAL_MS, one at a time, no
  // side longer than MAX_FRAME_SIDE.
  const FRAME_INTERVAL_MS = 100;
  const MAX_FRAME_SIDE = 640;
  // A frame the server dropped gets no answer; send the next one after this.
  const FRAME_TIMEOUT_MS = 3000;
  const HISTORY_LENGTH = 24;
  const UPLOADS_KEPT = 24;

  // ---------------------------------------------------------------- errors

  const errorBox = $("error");
  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }
  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }
  // A last resort: the page is written not to throw, but if it does, say so
  // on the page rather than only in the console.
  window.addEventListener("error", (event) => {
    showError("Something went wrong on this page: " + event.message);
  });
  window.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    showError("Something went wrong on this page: " + describe(event.reason));
  });
  function describe(error) {
    if (error && typeof error.message === "string" && error.message) return error.message;
    return String(error);
  }

  // ------------------------------------------------------------------- API

  function readMode() {
    return $("mode-number").checked ? "number" : "digit";
  }

  // The content types the server takes by name; anything else is sent as
  // application/octet-stream and the server sniffs the format.
  const NAMED_TYPES = ["image/png", "image/jpeg", "image/x-portable-anymap",
    "image/x-portable-graymap", "image/x-portable-pixmap", "image/x-portable-bitmap"];
  function contentType(file) {
    return NAMED_TYPES.includes(file.type) ? file.type : "application/octet-stream";
  }

  // One line from an error answer: the API's {"error", "code"}, or the
  // status when the body is something else.
  async function errorMessage(response) {
    let message = `The server answered ${response.status} ${response.statusText}`.trim();
    try {
      const body = await response.json();
      if (body && typeof body.error === "string") {
        message = body.error + (body.code ? ` (${body.code})` : "");
      }
    } catch (_) {
      // Not JSON: keep the status line.
    }
    if (response.status === 401) message += ". This server wants a token; the page cannot send one.";
    return message;
  }

  // POSTs one picture; resolves to the answer's JSON or rejects with an
  // Error whose message can be shown as it is.
  async function postPicture(body, type, mode) {
    const url = mode === "number" ? "/v1/read" : "/v1/classify?preprocessed=true&top=1";
    let response;
    try {
      response = await fetch(url, { method: "POST", headers: { "Content-Type": type }, body });
    } catch (error) {
      throw new Error("The server did not answer: " + describe(error));
    }
    if (!response.ok) throw new Error(await errorMessage(response));
    try {
      return await response.json();
    } catch (_) {
      throw new Error("The server's answer was not JSON.");
    }
  }

  function percent(probability) {
    // Rounded down, so that 0.99996 reads 99.9% and never a false 100%.
    return `${(Math.floor(probability * 1000) / 10).toFixed(1)}%`;
  }

  // What to show for one answer of /v1/classify or /v1/read.
  function view(result, mode) {
    const shown = { big: "–", confidence: "", status: "", warnings: [], pixels: null, kind: "none" };
    if (!result || typeof result !== "object") {
      shown.status = "The server's answer had no reading.";
      return shown;
    }
    shown.warnings = Array.isArray(result.warnings) ? result.warnings.map(String) : [];
    const value = mode === "number" ? result.text : result.digit;
    if (value === null || value === undefined) {
      shown.status = result.reason || "no digit found";
      if (typeof result.not_a_digit === "number") shown.confidence = percent(result.not_a_digit) + " sure";
      shown.kind = result.reason === "not a digit" ? "not-a-digit" : "no-digit";
      // After "not a digit": the digit the model ranks next and the 28x28 it
      // judged, so that a digit taken for none shows what the model saw.
      const nearest = Array.isArray(result.top) ? result.top[0] : null;
      if (nearest && typeof nearest.digit === "number" && typeof nearest.probability === "number") {
        shown.status += `; nearest digit ${nearest.digit} at ${percent(nearest.probability)}`;
      }
      shown.pixels = result.preprocessed || null;
      return shown;
    }
    shown.big = String(value);
    shown.kind = "read";
    if (typeof result.confidence === "number") shown.confidence = percent(result.confidence);
    shown.status = result.uncertain ? "uncertain" : "";
    if (mode === "number" && Array.isArray(result.digits) && result.digits.length > 1) {
      shown.status = [shown.status, result.digits
        .map((d) => `${d.digit} ${typeof d.confidence === "number" ? percent(d.confidence) : ""}`.trim())
        .join(" · ")].filter(Boolean).join("; ");
    }
    shown.pixels = result.preprocessed || null;
    return shown;
  }

  // Draws the server's 28x28 (base64 bytes, 0 = paper, 255 = ink) as the
  // model sees it: bright ink on black. False when there is none.
  function drawPixels(canvas, picture) {
    const context = canvas.getContext("2d");
    if (!context) return false;
    let bytes = null;
    if (picture && typeof picture.pixels === "string") {
      try {
        bytes = Uint8Array.from(atob(picture.pixels), (c) => c.charCodeAt(0));
      } catch (_) {
        bytes = null;
      }
    }
    const width = picture ? picture.width | 0 : 0;
    const height = picture ? picture.height | 0 : 0;
    if (!bytes || width <= 0 || height <= 0 || bytes.length !== width * height) {
      context.fillStyle = "#000";
      context.fillRect(0, 0, canvas.width, canvas.height);
      return false;
    }
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const image = context.createImageData(width, height);
    for (let i = 0; i < bytes.length; i += 1) {
      image.data[4 * i] = bytes[i];
      image.data[4 * i + 1] = bytes[i];
      image.data[4 * i + 2] = bytes[i];
      image.data[4 * i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
    return true;
  }

  // ------------------------------------------------------------ drawing pad

  const pad = $("pad");
  const padContext = pad.getContext("2d");
  const exportCanvas = document.createElement("canvas");
  exportCanvas.width = EXPORT_WIDTH;
  exportCanvas.height = Math.round(EXPORT_WIDTH * ASPECT);
  const answer = $("answer");
  const answerDigit = $("answer-digit");
  const answerConfidence = $("answer-confidence");
  const answerStatus = $("answer-status");
  const answerWarnings = $("answer-warnings");
  const preprocessed = $("preprocessed");
  const preprocessedFigure = $("preprocessed-figure");

  // Strokes in units of the pad's width, so that they survive a resize.
  const strokes = [];
  let activePointer = null;
  let sendTimer = 0;
  let request = 0;

  function paint(context, width, height) {
    context.fillStyle = PAPER;
    context.fillRect(0, 0, width, height);
    context.strokeStyle = INK;
    context.fillStyle = INK;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.lineWidth = STROKE * width;
    for (const stroke of strokes) paintStroke(context, stroke, width, 0);
  }

  // Paints stroke from point index `from` on (a dot for a single point).
  function paintStroke(context, stroke, width, from) {
    if (stroke.length === 1) {
      context.beginPath();
      context.arc(stroke[0][0] * width, stroke[0][1] * width, context.lineWidth / 2, 0, 2 * Math.PI);
      context.fill();
      return;
    }
    const start = Math.max(0, from - 1);
    context.beginPath();
    context.moveTo(stroke[start][0] * width, stroke[start][1] * width);
    for (let i = start + 1; i < stroke.length; i += 1) {
      context.lineTo(stroke[i][0] * width, stroke[i][1] * width);
    }
    context.stroke();
  }

  function fitPad() {
    const box = pad.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(box.width * ratio));
    const height = Math.max(1, Math.round(width * ASPECT));
    if (pad.width !== width || pad.height !== height) {
      pad.width = width;
      pad.height = height;
    }
    paint(padContext, pad.width, pad.height);
  }

  function pointOf(event) {
    const box = pad.getBoundingClientRect();
    if (box.width <= 0) return [0, 0];
    return [(event.clientX - box.left) / box.width, (event.clientY - box.top) / box.width];
  }

  pad.addEventListener("pointerdown", (event) => {
    if (activePointer !== null) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    try {
      pad.setPointerCapture(event.pointerId);
    } catch (_) {
      // Capture is a nicety: strokes that leave the pad end there.
    }
    activePointer = event.pointerId;
    clearTimeout(sendTimer);
    const stroke = [pointOf(event)];
    strokes.push(stroke);
    paint(padContext, pad.width, pad.height);
  });

  pad.addEventListener("pointermove", (event) => {
    if (event.pointerId !== activePointer) return;
    event.preventDefault();
    const stroke = strokes[strokes.length - 1];
    const from = stroke.length;
    const events = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
    for (const e of events.length ? events : [event]) stroke.push(pointOf(e));
    if (from === 1) {
      paint(padContext, pad.width, pad.height);
    } else {
      paintStroke(padContext, stroke, pad.width, from);
    }
  });

  function endStroke(event) {
    if (event.pointerId !== activePointer) return;
    activePointer = null;
    clearTimeout(sendTimer);
    sendTimer = setTimeout(readDrawing, SEND_DELAY_MS);
  }
  pad.addEventListener("pointerup", endStroke);
  pad.addEventListener("pointercancel", endStroke);
  pad.addEventListener("lostpointercapture", endStroke);

  function showAnswer(shown) {
    answerDigit.textContent = shown.big;
    answerConfidence.textContent = shown.confidence;
    answerStatus.textContent = shown.status;
    answerWarnings.replaceChildren(...shown.warnings.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    answer.dataset.kind = shown.kind;
    answer.classList.toggle("uncertain", shown.status.startsWith("uncertain"));
    preprocessedFigure.hidden = !drawPixels(preprocessed, shown.pixels);
  }

  function resetAnswer(status) {
    showAnswer({ big: "?", confidence: "", status, warnings: [], pixels: null, kind: "none" });
    answer.dataset.state = "idle";
  }

  function exportDrawing() {
    const context = exportCanvas.getContext("2d");
    paint(context, exportCanvas.width, exportCanvas.height);
    return new Promise((resolve) => exportCanvas.toBlob(resolve, "image/png"));
  }

  async function readDrawing() {
    if (strokes.length === 0) return;
    const mine = ++request;
    const mode = readMode();
    answer.dataset.state = "pending";
    answerStatus.textContent = "Reading…";
    try {
      const blob = await exportDrawing();
      if (!blob) throw new Error("This browser could not make a PNG of the drawing.");
      const result = await postPicture(blob, "image/png", mode);
      if (mine !== request) return;
      showAnswer(view(result, mode));
      answer.dataset.state = "done";
    } catch (error) {
      if (mine !== request) return;
      showAnswer({ big: "!", confidence: "", status: describe(error), warnings: [], pixels: null, kind: "error" });
      answer.dataset.state = "error";
    }
    answer.dataset.answered = String(Number(answer.dataset.answered || "0") + 1);
  }

  $("clear").addEventListener("click", () => {
    strokes.length = 0;
    activePointer = null;
    clearTimeout(sendTimer);
    request += 1;
    paint(padContext, pad.width, pad.height);
    resetAnswer("Draw something.");
  });

  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener("change", () => {
      $("pad-hint").textContent = readMode() === "number"
        ? "Write a number, digits side by side; the answer comes when you lift the pen."
        : "Draw with a mouse, a pen or a finger; the answer comes when you lift it.";
      if (strokes.length) readDrawing();
    });
  }

  if (typeof ResizeObserver === "function") {
    new ResizeObserver(fitPad).observe(pad);
  } else {
    window.addEventListener("resize", fitPad);
  }
  fitPad();
  preprocessedFigure.hidden = true;

  // ---------------------------------------------------------------- camera

  const video = $("video");
  const videoBox = $("video-box");
  const roi = $("roi");
  const live = $("live");
  const liveDigit = $("live-digit");
  const liveConfidence = $("live-confidence");
  const livePreprocessed = $("live-preprocessed");
  const liveHistory = $("live-history");
  const cameraState = $("camera-state");
  const startButton = $("camera-start");
  const stopButton = $("camera-stop");
  const grab = document.createElement("canvas");

  const camera = { stream: null, socket: null, timer: 0, watchdog: 0, inFlight: false, lastSent: 0, frames: 0 };

  function mediaError(error) {
    const name = error && error.name;
    if (name === "NotAllowedError") return "the browser was not allowed to use it";
    if (name === "NotFoundError" || name === "OverconstrainedError") return "none was found";
    if (name === "NotReadableError") return "another program is using it";
    return describe(error);
  }

  async function startCamera() {
    if (camera.stream || camera.socket) return;
    clearError();
    if (!navigator.mediaDevices || typeof navigator.mediaDevices.getUserMedia !== "function") {
      showError("This browser gives no camera to this page (a camera needs https, or this computer's own address).");
      return;
    }
    startButton.disabled = true;
    cameraState.textContent = "Asking for the camera…";
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: "environment" }, width: { ideal: 640 }, height: { ideal: 480 } },
      });
    } catch (error) {
      startButton.disabled = false;
      cameraState.textContent = "";
      showError("No camera: " + mediaError(error) + ".");
      return;
    }
    camera.stream = stream;
    video.srcObject = stream;
    videoBox.hidden = false;
    live.hidden = false;
    stopButton.disabled = false;
    try {
      await video.play();
    } catch (error) {
      stopCamera("");
      showError("The camera's picture would not play: " + describe(error));
      return;
    }
    openStream();
  }

  function openStream() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/v1/stream?frames=true`);
    socket.binaryType = "arraybuffer";
    camera.socket = socket;
    camera.inFlight = false;
    camera.frames = 0;
    cameraState.textContent = "Connecting…";
    socket.addEventListener("open", () => {
      if (camera.socket !== socket) return;
      cameraState.textContent = "Hold a digit in the square.";
      scheduleFrame(0);
    });
    socket.addEventListener("message", (event) => {
      if (camera.socket === socket) onStreamEvent(event.data);
    });
    socket.addEventListener("close", (event) => {
      if (camera.socket !== socket) return;
      stopCamera("");
      const why = event.reason ? `: ${event.reason}` : "";
      showError(`The server closed the camera stream (${event.code}${why}).`);
    });
  }

  function scheduleFrame(delay) {
    clearTimeout(camera.timer);
    camera.timer = setTimeout(sendFrame, delay);
  }

  function sendFrame() {
    const socket = camera.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || camera.inFlight) return;
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (video.readyState < 2 || !width || !height) {
      scheduleFrame(50);
      return;
    }
    const scale = Math.min(1, MAX_FRAME_SIDE / Math.max(width, height));
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    if (grab.width !== w) grab.width = w;
    if (grab.height !== h) grab.height = h;
    const context = grab.getContext("2d");
    if (!context) return;
    context.drawImage(video, 0, 0, w, h);
    camera.inFlight = true;
    camera.lastSent = performance.now();
    grab.toBlob((blob) => {
      if (camera.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
      if (!blob) {
        frameAnswered();
        return;
      }
      socket.send(blob);
      camera.frames += 1;
      live.dataset.frames = String(camera.frames);
      clearTimeout(camera.watchdog);
      camera.watchdog = setTimeout(frameAnswered, FRAME_TIMEOUT_MS);
    }, "image/jpeg", 0.8);
  }

  // The frame in flight was answered (or given up on): send the next one,
  // no sooner than FRAME_INTERVAL_MS after the last.
  function frameAnswered() {
    clearTimeout(camera.watchdog);
    camera.inFlight = false;
    scheduleFrame(Math.max(0, camera.lastSent + FRAME_INTERVAL_MS - performance.now()));
  }

  function onStreamEvent(data) {
    if (typeof data !== "string") return;
    let event;
    try {
      event = JSON.parse(data);
    } catch (_) {
      return;
    }
    if (!event || typeof event !== "object") return;
    switch (event.event) {
    case "frame":
      drawPixels(livePreprocessed, event.preprocessed);
      livePreprocessed.dataset.digit = typeof event.digit === "number" ? String(event.digit) : "";
      frameAnswered();
      break;
    case "error":
      cameraState.textContent = `Frame ${event.frame}: ${event.error}`;
      frameAnswered();
      break;
    case "dropped":
      // Over the server's rate cap: this frame will get no answer.
      frameAnswered();
      break;
    case "digit":
      liveDigit.textContent = String(event.digit);
      liveConfidence.textContent = typeof event.confidence === "number" ? percent(event.confidence) : "";
      addToHistory(event.digit);
      cameraState.textContent = "Hold a digit in the square.";
      break;
    case "clear":
      liveDigit.textContent = "–";
      liveConfidence.textContent = "";
      break;
    default:
      break;
    }
  }

  function addToHistory(digit) {
    const item = document.createElement("li");
    item.textContent = String(digit);
    liveHistory.append(item);
    while (liveHistory.children.length > HISTORY_LENGTH) liveHistory.firstElementChild.remove();
  }

  // The region the server reads: the centre square whose side is half the
  // frame's shorter side.
  function placeRegion() {
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (!width || !height) return;
    videoBox.style.aspectRatio = `${width} / ${height}`;
    const side = Math.min(width, height) / 2;
    roi.style.width = `${(100 * side) / width}%`;
    roi.style.height = `${(100 * side) / height}%`;
  }
  video.addEventListener("loadedmetadata", placeRegion);
  video.addEventListener("resize", placeRegion);

  function stopCamera(state) {
    clearTimeout(camera.timer);
    clearTimeout(camera.watchdog);
    const socket = camera.socket;
    camera.socket = null;
    camera.inFlight = false;
    if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) {
      socket.close(1000, "stopped");
    }
    if (camera.stream) {
      for (const track of camera.stream.getTracks()) track.stop();
      camera.stream = null;
    }
    video.srcObject = null;
    videoBox.hidden = true;
    liveDigit.textContent = "–";
    liveConfidence.textContent = "";
    stopButton.disabled = true;
    startButton.disabled = false;
    cameraState.textContent = state;
  }

  startButton.addEventListener("click", () => {
    startCamera().catch((error) => showError(describe(error)));
  });
  stopButton.addEventListener("click", () => stopCamera("Stopped."));
  window.addEventListener("pagehide", () => stopCamera(""));

  // ---------------------------------------------------------------- photos

  const upload = $("upload");
  const dropZone = $("drop-zone");
  const uploads = $("uploads");

  function readPhotos(files) {
    clearError();
    for (const file of files) {
      readPhoto(file).catch((error) => showError(describe(error)));
    }
  }

  function forget(item) {
    const image = item.querySelector("img");
    if (image && image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
    item.remove();
  }

  async function readPhoto(file) {
    const mode = readMode();
    const item = document.createElement("li");
    item.className = "upload";
    item.dataset.state = "pending";
    const image = document.createElement("img");
    image.addEventListener("error", () => { image.hidden = true; });
    image.src = URL.createObjectURL(file);
    image.alt = file.name;
    const seen = document.createElement("canvas");
    seen.className = "pixels small";
    seen.width = 28;
    seen.height = 28;
    seen.hidden = true;
    seen.setAttribute("role", "img");
    seen.setAttribute("aria-label", `The 28 by 28 picture the model saw in ${file.name}`);
    const text = document.createElement("div");
    text.className = "upload-text";
    const name = document.createElement("div");
    name.className = "upload-name";
    name.textContent = file.name;
    const digit = document.createElement("div");
    digit.className = "upload-digit";
    digit.textContent = "…";
    const status = document.createElement("div");
    status.className = "upload-status";
    status.textContent = "Reading…";
    text.append(name, digit, status);
    item.append(image, seen, text);
    uploads.prepend(item);
    while (uploads.children.length > UPLOADS_KEPT) forget(uploads.lastElementChild);

    try {
      const shown = view(await postPicture(file, contentType(file), mode), mode);
      digit.textContent = shown.big;
      status.textContent = [shown.confidence, shown.status, ...shown.warnings].filter(Boolean).join(" · ");
      seen.hidden = !drawPixels(seen, shown.pixels);
      item.dataset.state = "done";
      item.dataset.kind = shown.kind;
    } catch (error) {
      digit.textContent = "!";
      status.textContent = describe(error);
      item.dataset.state = "error";
    }
  }

  upload.addEventListener("change", () => {
    readPhotos(Array.from(upload.files || []));
    upload.value = "";
  });
  dropZone.addEventListener("dragover", (event) => {
    event.preventDefault();
    dropZone.classList.add("over");
  });
  dropZone.addEventListener("dragleave", () => dropZone.classList.remove("over"));
  dropZone.addEventListener("drop", (event) => {
    event.preventDefault();
    dropZone.classList.remove("over");
    readPhotos(Array.from((event.dataTransfer && event.dataTransfer.files) || []));
  });
  // A photo dropped beside the zone must not replace the page.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());
})();
"""#
}
