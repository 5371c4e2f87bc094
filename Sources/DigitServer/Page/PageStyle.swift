extension PageAssets {
    /// GET /app.css: one column on a phone, two side by side on a wider
    /// screen; the system's fonts; a dark scheme when the system asks.
    static let appCSS = #"""
:root {
  --page: #f3f1ec;
  --card: #ffffff;
  --text: #1d2433;
  --muted: #5b6475;
  --line: #d9d5cc;
  --accent: #1f5fbf;
  --accent-text: #ffffff;
  --paper: #fbfaf6;
  --warn: #8a5200;
  --bad: #b3261e;
  --radius: 12px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--text);
  background: var(--page);
}
@media (prefers-color-scheme: dark) {
  :root {
    --page: #15181e;
    --card: #1e232b;
    --text: #e8eaee;
    --muted: #a3abb9;
    --line: #353c48;
    --accent: #7fb0ff;
    --accent-text: #0b1220;
    --warn: #f0b25a;
    --bad: #ff8a80;
  }
}
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.4; }
[hidden] { display: none !important; }

.top, .bottom, main { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
.top { padding-top: 16px; }
.top h1 { margin: 0; font-size: 1.8rem; letter-spacing: 0.02em; }
.top p { margin: 4px 0 0; color: var(--muted); }
.bottom { color: var(--muted); font-size: 0.9rem; padding-bottom: 24px; }
a { color: var(--accent); }

main {
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  padding-top: 12px;
}
@media (min-width: 900px) {
  main {
    grid-template-columns: minmax(0, 7fr) minmax(0, 5fr);
    grid-template-areas: "mode mode" "draw camera" "photos camera";
    align-items: start;
  }
  .mode { grid-area: mode; }
  .draw { grid-area: draw; }
  .camera { grid-area: camera; }
  .photos { grid-area: photos; }
}

.card {
  background: var(--card);
  border: 1px solid var(--line);
  border-radius: var(--radius);
  padding: 12px 16px 16px;
  min-width: 0;
}
.card h2 { margin: 0 0 8px; font-size: 1.1rem; }

.mode {
  border: 0;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
}
.mode legend { float: left; margin-right: 4px; font-weight: 600; padding: 0; }
.mode input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.mode label {
  border: 1px solid var(--line);
  background: var(--card);
  border-radius: 999px;
  padding: 6px 14px;
  cursor: pointer;
}
.mode input:checked + label { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
.mode input:focus-visible + label { outline: 3px solid var(--accent); outline-offset: 2px; }

#pad {
  display: block;
  width: 100%;
  aspect-ratio: 4 / 3;
  background: var(--paper);
  border: 1px solid var(--line);
  border-radius: 8px;
  touch-action: none;
  cursor: crosshair;
  -webkit-user-select: none;
  user-select: none;
}

.row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; margin: 10px 0; }
.hint { color: var(--muted); font-size: 0.9rem; }

button {
  font: inherit;
  border-radius: 8px;
  border: 1px solid var(--accent);
  background: var(--accent);
  color: var(--accent-text);
  padding: 8px 16px;
  min-height: 44px;
  cursor: pointer;
}
button:disabled { opacity: 0.45; cursor: default; }
button:focus-visible, .drop:focus-within, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }

.answer {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px 20px;
  border-top: 1px solid var(--line);
  padding-top: 12px;
}
.answer-main { display: flex; align-items: center; gap: 16px; min-width: 0; }
@media (min-width: 900px) {
  /* The answer beside the pad rather than under it. */
  .draw-body { display: grid; grid-template-columns: minmax(0, 1fr) 190px; gap: 20px; align-items: start; }
  .draw-body .answer { flex-direction: column; align-items: flex-start; border-top: 0; padding-top: 0; }
  .draw-body .answer-main { flex-direction: column; align-items: flex-start; gap: 4px; }
  .draw-body .row { margin-bottom: 0; }
}
.big {
  font-size: clamp(3.5rem, 14vw, 6rem);
  font-weight: 700;
  line-height: 1;
  font-variant-numeric: tabular-nums;
  min-width: 1ch;
  overflow-wrap: anywhere;
}
.confidence { font-size: 1.4rem; font-weight: 600; }
.status { color: var(--muted); }
.answer.uncertain .status, .warnings { color: var(--warn); }
.answer[data-kind="error"] .status { color: var(--bad); }
.warnings { margin: 4px 0 0; padding-left: 1.2em; }

.seen { margin: 0; text-align: center; }
.seen figcaption { font-size: 0.8rem; color: var(--muted); }
.pixels {
  width: 112px;
  height: 112px;
  image-rendering: pixelated;
  background: #000;
  border-radius: 4px;
  display: block;
}
.pixels.small { width: 56px; height: 56px; flex: none; }

.video-box {
  position: relative;
  width: 100%;
  aspect-ratio: 4 / 3;
  background: #000;
  border-radius: 8px;
  overflow: hidden;
}
.video-box video { width: 100%; height: 100%; object-fit: contain; display: block; }
.roi {
  position: absolute;
  left: 50%;
  top: 50%;
  width: 37.5%;
  height: 50%;
  transform: translate(-50%, -50%);
  border: 2px dashed #ffd54a;
  border-radius: 4px;
  pointer-events: none;
}
.live { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 20px; margin-top: 12px; }
.live-answer { display: flex; align-items: baseline; gap: 12px; }
.history { flex-basis: 100%; display: flex; align-items: baseline; gap: 8px; }
.history ol { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 0; }
.history li {
  border: 1px solid var(--line);
  border-radius: 6px;
  padding: 0 8px;
  font-variant-numeric: tabular-nums;
}

.drop {
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 4px;
  border: 2px dashed var(--line);
  border-radius: 10px;
  padding: 20px 12px;
  text-align: center;
  cursor: pointer;
}
.drop.over { border-color: var(--accent); background: color-mix(in srgb, var(--accent) 8%, transparent); }
.drop .link { color: var(--accent); text-decoration: underline; }
.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
.uploads { list-style: none; margin: 12px 0 0; padding: 0; display: grid; gap: 8px; }
.upload {
  display: flex;
  align-items: center;
  gap: 12px;
  border: 1px solid var(--line);
  border-radius: 8px;
  padding: 8px;
}
.upload img { width: 56px; height: 56px; object-fit: cover; border-radius: 4px; flex: none; background: var(--paper); }
.upload-text { min-width: 0; }
.upload-name { font-size: 0.85rem; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.upload-digit { font-size: 1.8rem; font-weight: 700; line-height: 1.1; }
.upload-status { font-size: 0.9rem; }
.upload[data-state="error"] .upload-status { color: var(--bad); }

.error {
  margin: 12px max(16px, calc((100% - 1168px) / 2)) 0;
  border: 1px solid var(--bad);
  color: var(--bad);
  background: var(--card);
  border-radius: var(--radius);
  padding: 10px 14px;
}
"""#
}
