"""The page that `digits serve` serves at /, in a real browser.

Headless Chromium through chromedriver (selenium) against a running server
(scripts/test-browser starts one): draws digits with synthesized pen, mouse
and touch pointer events and reads the answers; uploads committed photos;
plays a committed camera clip through Chromium's fake capture device and
checks that the live digits come in the clip's order; fails on any console
error or failed request; takes the screenshots of docs/serve.md.

    python Tests/Browser/test_page.py --url http://127.0.0.1:PORT [--screenshots DIR]

Prints one line per check and ends with "browser: N passed, N failed".
"""

import argparse
import gzip
import json
import os
import re
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLIP = os.path.join(REPO, "Tests", "Fixtures", "stream", "scenario-320x240-420.y4m.gz")

# Strokes in fractions of the pad's width (x) and height (y).
SEVEN = [[(0.36, 0.18), (0.64, 0.18), (0.46, 0.86)]]
ONE = [[(0.53, 0.14), (0.48, 0.86)]]
FOUR = [[(0.50, 0.14), (0.37, 0.58), (0.65, 0.58)], [(0.57, 0.32), (0.57, 0.88)]]
# "72" side by side, for the number mode.
SEVENTY_TWO = [
    [(0.12, 0.22), (0.40, 0.22), (0.22, 0.84)],
    [(0.56, 0.34), (0.60, 0.24), (0.69, 0.19), (0.79, 0.23), (0.81, 0.35), (0.75, 0.50),
     (0.56, 0.82), (0.86, 0.82)],
]


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshots", help="write serve-desktop.png and serve-phone.png here")
    parser.add_argument("--clip-fps", type=int, default=10,
                        help="play the camera clip at this rate (the page sends at most 10 frames a second)")
    return parser.parse_args()


class Checks:
    """Runs named checks, prints one line each, counts the failures."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, function, *arguments):
        started = time.monotonic()
        try:
            detail = function(*arguments)
        except Exception as error:  # every failure is reported, then the next check runs
            self.failed += 1
            message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            print(f"FAIL {name}: {message}", flush=True)
            if not isinstance(error, AssertionError):
                traceback.print_exc(file=sys.stdout)
            return None
        self.passed += 1
        print(f"ok   {name}: {detail} ({time.monotonic() - started:.1f} s)", flush=True)
        return detail


def slowed_clip(directory, fps):
    """The committed clip, uncompressed (Chromium reads only plain y4m) and
    retimed to `fps` so that the page, which sends at most 10 frames a second,
    samples about every frame, as `digits stream` reads the file."""
    with gzip.open(CLIP, "rb") as packed:
        data = packed.read()
    header_end = data.index(b"\n")
    fields = [field if not field.startswith(b"F") else b"F%d:1" % fps for field in data[:header_end].split(b" ")]
    path = os.path.join(directory, "clip.y4m")
    with open(path, "wb") as out:
        out.write(b" ".join(fields) + data[header_end:])
    with open(CLIP + ".events.json") as handle:
        events = json.load(handle)
    return path, [event["digit"] for event in events["events"] if event["event"] == "digit"]


def start_browser(arguments, *, phone=False, clip=None):
    options = Options()
    options.binary_location = arguments.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars"):
        options.add_argument(flag)
    if clip:
        options.add_argument("--use-fake-device-for-media-stream")
        options.add_argument("--use-fake-ui-for-media-stream")
        options.add_argument(f"--use-file-for-fake-video-capture={clip}")
    else:
        # No camera for the phone: its permission prompt is answered "no".
        options.add_argument("--deny-permission-prompts")
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": True, "mobile": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                         "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
        })
    else:
        options.add_argument("--window-size=1280,1080")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(arguments.chromedriver), options=options)
    driver.set_page_load_timeout(30)
    return driver


# ------------------------------------------------------------ the page's parts

def open_page(driver, url):
    driver.get(url + "/")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    title = driver.title
    assert "digits" in title, f"title {title!r}"
    # The script ran (it draws the paper on the pad and hides the empty 28x28).
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "preprocessed-figure").get_attribute("hidden") is not None)
    return f"{title!r}"


def answered(driver):
    return int(driver.find_element(By.ID, "answer").get_attribute("data-answered") or "0")


def clear_pad(driver):
    driver.find_element(By.ID, "clear").click()
    assert driver.find_element(By.ID, "answer-digit").text == "?"


def draw(driver, strokes, kind):
    """Draws `strokes` on the pad with a pointer of `kind` (pen, mouse,
    touch): one pointer down, moves every ~2% of the width, pointer up."""
    pad = driver.find_element(By.ID, "pad")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", pad)
    left, top, width, height = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", pad)
    # Which kind of pointer the page saw: chromedriver is to synthesize it.
    driver.execute_script("""
        const pad = arguments[0];
        window.testPointerKinds = [];
        if (!window.testPointerListener) {
            window.testPointerListener = (event) => window.testPointerKinds.push(event.pointerType);
            pad.addEventListener("pointerdown", window.testPointerListener);
        }""", pad)
    pointer = PointerInput(kind, kind)
    actions = ActionBuilder(driver, mouse=pointer, duration=0)
    for stroke in strokes:
        points = []
        for (x0, y0), (x1, y1) in zip(stroke, stroke[1:]):
            steps = max(1, round(max(abs(x1 - x0), abs(y1 - y0)) / 0.02))
            points += [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps)]
        points.append(stroke[-1])
        to_view = [(round(left + x * width), round(top + y * height)) for x, y in points]
        actions.pointer_action.move_to_location(*to_view[0])
        actions.pointer_action.pointer_down()
        for x, y in to_view[1:]:
            actions.pointer_action.move_to_location(x, y)
        actions.pointer_action.pointer_up()
        actions.pointer_action.pause(0.05)
    actions.perform()
    kinds = driver.execute_script("return window.testPointerKinds")
    assert kinds == [kind] * len(strokes), f"drew {len(strokes)} strokes with a {kind}, the page saw {kinds}"


def read_answer(driver, before, timeout=30):
    """Waits for the answer after the `before`-th and returns it."""
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: answered(d) > before)
    answer = driver.find_element(By.ID, "answer")
    return {
        "state": answer.get_attribute("data-state"),
        "digit": driver.find_element(By.ID, "answer-digit").text,
        "confidence": driver.find_element(By.ID, "answer-confidence").text,
        "status": driver.find_element(By.ID, "answer-status").text,
    }


INK_SCRIPT = """
const canvas = arguments[0];
if (canvas.width !== 28 || canvas.height !== 28) return -1;
const data = canvas.getContext("2d").getImageData(0, 0, 28, 28).data;
let ink = 0;
for (let i = 0; i < data.length; i += 4) if (data[i] > 127) ink += 1;
return ink;
"""


def draw_and_read(driver, strokes, kind, expected, mode="digit"):
    clear_pad(driver)
    driver.find_element(By.CSS_SELECTOR, f"label[for='mode-{mode}']").click()
    before = answered(driver)
    draw(driver, strokes, kind)
    lifted = time.monotonic()
    answer = read_answer(driver, before)
    seconds = time.monotonic() - lifted
    assert answer["state"] == "done", f"the page shows an error: {answer['status']}"
    assert answer["digit"] == expected, f"drew {expected} with a {kind}, the page reads {answer['digit']!r} ({answer})"
    assert answer["confidence"].endswith("%"), f"no confidence shown: {answer}"
    detail = f"read {answer['digit']} {answer['confidence']}"
    if answer["status"]:
        detail += f" ({answer['status']})"
    if mode == "digit":
        ink = driver.execute_script(INK_SCRIPT, driver.find_element(By.ID, "preprocessed"))
        assert ink >= 20, f"the 28x28 preview has {ink} ink pixels"
        assert driver.find_element(By.ID, "preprocessed").is_displayed(), "the 28x28 preview is hidden"
        detail += f", 28x28 preview with {ink} ink pixels"
    return detail + f", {seconds:.2f} s from pointer-up (0.3 s of it the page's pause)"


def choose_file(driver, path):
    """Chooses `path` in digit mode and waits for its answer: the upload's
    list item and the seconds it took."""
    driver.find_element(By.CSS_SELECTOR, "label[for='mode-digit']").click()
    count = len(driver.find_elements(By.CSS_SELECTOR, "#uploads li"))
    driver.find_element(By.ID, "upload").send_keys(path)
    chosen = time.monotonic()
    WebDriverWait(driver, 30, poll_frequency=0.02).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#uploads li")) > count
        and d.find_element(By.CSS_SELECTOR, "#uploads li").get_attribute("data-state") != "pending")
    return driver.find_element(By.CSS_SELECTOR, "#uploads li"), time.monotonic() - chosen


def upload(driver, name, expected):
    item, seconds = choose_file(driver, os.path.join(REPO, "Examples", name))
    digit = item.find_element(By.CSS_SELECTOR, ".upload-digit").text
    status = item.find_element(By.CSS_SELECTOR, ".upload-status").text
    assert item.get_attribute("data-state") == "done", f"{name}: {status}"
    assert item.find_element(By.CSS_SELECTOR, ".upload-name").text == name
    assert digit == str(expected), f"{name} is a {expected}, the page reads {digit!r} ({status})"
    loaded = driver.execute_script(
        "const i = arguments[0]; return i.complete && i.naturalWidth > 0;", item.find_element(By.TAG_NAME, "img"))
    assert loaded, f"{name}: the thumbnail did not load"
    ink = driver.execute_script(INK_SCRIPT, item.find_element(By.CSS_SELECTOR, "canvas"))
    assert ink >= 20, f"{name}: its 28x28 has {ink} ink pixels"
    return f"{name} read {digit} ({status}) {seconds:.2f} s after it was chosen; thumbnail and 28x28 with {ink} ink pixels shown"


def upload_not_a_digit(driver, name):
    """A letter is answered "not a digit", with the digit ranked next and
    the 28x28 the model judged, so that a digit taken for none shows why."""
    item, _ = choose_file(driver, os.path.join(REPO, "Examples", name))
    status = item.find_element(By.CSS_SELECTOR, ".upload-status").text
    assert item.get_attribute("data-state") == "done", f"{name}: {status}"
    assert item.get_attribute("data-kind") == "not-a-digit", f"{name} is a letter, the page shows {status!r}"
    assert re.search(r"^\d{1,3}\.\d% sure · not a digit; nearest digit \d at \d{1,3}\.\d%$", status), f"{name}: {status!r}"
    ink = driver.execute_script(INK_SCRIPT, item.find_element(By.CSS_SELECTOR, "canvas"))
    assert ink >= 20, f"{name}: its 28x28 has {ink} ink pixels"
    return f"{name}: {status!r}; 28x28 with {ink} ink pixels shown"


# Pauses the video and returns the share of dark pixels in the square the
# server reads (the centre square, half the shorter side).
HOLD_VIDEO_SCRIPT = """
const video = document.getElementById("video");
video.pause();
const canvas = document.createElement("canvas");
canvas.width = video.videoWidth;
canvas.height = video.videoHeight;
const context = canvas.getContext("2d");
context.drawImage(video, 0, 0);
const side = Math.floor(Math.min(canvas.width, canvas.height) / 2);
const data = context.getImageData((canvas.width - side) >> 1, (canvas.height - side) >> 1, side, side).data;
let dark = 0;
for (let i = 0; i < data.length; i += 4) if (data[i] < 100) dark += 1;
return dark / (side * side);
"""


def cyclic_order(seen, cycle):
    """True when `seen` runs through `cycle` in order, from any point of it,
    as a looping clip does."""
    return any(all(seen[i] == cycle[(start + i) % len(cycle)] for i in range(len(seen)))
               for start in range(len(cycle)))


def camera(driver, expected, screenshot):
    driver.find_element(By.CSS_SELECTOR, "label[for='mode-digit']").click()
    driver.find_element(By.ID, "camera-start").click()
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script("const v = document.getElementById('video'); return v.readyState >= 2 && v.videoWidth > 0"))
    size = driver.execute_script("const v = document.getElementById('video'); return [v.videoWidth, v.videoHeight]")
    started = time.monotonic()
    seen = []
    first = None
    deadline = started + 60
    wanted = max(len(expected) + 1, 4)
    while time.monotonic() < deadline:
        seen = [int(item.text) for item in driver.find_elements(By.CSS_SELECTOR, "#live-history li")]
        if seen and first is None:
            first = time.monotonic() - started
        if len(seen) >= wanted or (seen and not cyclic_order(seen, expected)):
            break
        time.sleep(0.2)
    read_for = time.monotonic() - started
    # For the screenshot and the 28x28 check: a moment when a digit is up
    # and the latest frame reads it too; the video is held still on a frame
    # whose square shows ink but not the clip's passing hand.
    steady_until = time.monotonic() + 15
    while time.monotonic() < steady_until:
        live = driver.find_element(By.ID, "live-digit").text
        if (live.isdigit() and live == driver.find_element(By.ID, "live-preprocessed").get_attribute("data-digit")
                and driver.execute_script(INK_SCRIPT, driver.find_element(By.ID, "live-preprocessed")) >= 20):
            if 0.01 <= driver.execute_script(HOLD_VIDEO_SCRIPT) <= 0.25:
                break
            driver.execute_script("document.getElementById('video').play()")
        time.sleep(0.05)
    elapsed = time.monotonic() - started
    frames = int(driver.find_element(By.ID, "live").get_attribute("data-frames") or "0")
    live = driver.find_element(By.ID, "live-digit").text
    ink = driver.execute_script(INK_SCRIPT, driver.find_element(By.ID, "live-preprocessed"))
    if screenshot:
        screenshot()
    driver.find_element(By.ID, "camera-stop").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "camera-start").is_enabled())
    tracks = driver.execute_script("const v = document.getElementById('video'); return v.srcObject === null")
    assert tracks, "Stop left the camera attached"
    error = driver.find_element(By.ID, "error")
    assert not error.is_displayed(), f"the page shows an error: {error.text}"
    assert len(seen) >= len(expected), f"after {time.monotonic() - started:.0f} s the page showed only {seen}; the clip shows {expected} in a loop"
    assert cyclic_order(seen, expected), f"the page showed {seen}; the clip shows {expected} in that order, looping"
    assert len(set(seen)) == len(set(expected)), f"the page showed {seen}"
    assert ink >= 20, f"the 28x28 of the latest frame has {ink} ink pixels while {live!r} is shown"
    return (f"{size[0]}x{size[1]} fake camera; live digits {' '.join(map(str, seen))} "
            f"(clip: {' '.join(map(str, expected))}, looping); first after {first:.1f} s, "
            f"{len(seen)} in {read_for:.1f} s, {frames} frames sent ({frames / elapsed:.1f} a second); last live {live!r}, "
            f"28x28 of the latest frame with {ink} ink pixels; Stop released the camera")


def no_horizontal_scroll(driver):
    widths = driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth, "
        "document.getElementById('pad').getBoundingClientRect().width]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide in a {widths[1]} px screen"
    assert widths[2] >= 300, f"the pad is only {widths[2]} px wide"
    return f"page {widths[0]} px wide in {widths[1]} px, pad {widths[2]:.0f} px wide"


def shows_api_error(driver, url):
    """An error from the API is shown plainly: a picture that is not one."""
    driver.find_element(By.CSS_SELECTOR, "label[for='mode-digit']").click()
    with tempfile.NamedTemporaryFile("wb", suffix=".png", delete=False) as handle:
        handle.write(b"this is not a picture\n")
        path = handle.name
    try:
        item, _ = choose_file(driver, path)
    finally:
        os.unlink(path)
    status = item.find_element(By.CSS_SELECTOR, ".upload-status").text
    assert item.get_attribute("data-state") == "error", f"a file that is no picture was answered: {status}"
    assert "(undecodable_picture)" in status, f"the error shown is {status!r}"
    return f"a file that is no picture shows {status!r}"


def camera_refused(driver):
    """A camera the browser cannot give (none here, or refused) is said
    plainly, and the page stays usable."""
    driver.find_element(By.ID, "camera-start").click()
    error = driver.find_element(By.ID, "error")
    WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda d: error.is_displayed())
    message = error.text
    assert message.startswith("No camera"), f"the page says {message!r}"
    assert driver.find_element(By.ID, "camera-start").is_enabled(), "Use camera stays disabled"
    assert not driver.find_element(By.ID, "camera-stop").is_enabled(), "Stop is enabled without a camera"
    return f"the page says {message!r}"


def logs_clean(driver, allowed_status=()):
    """No console message of level SEVERE, no failed request, no 4xx/5xx
    answer (except those a check asked for on purpose)."""
    console = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
               and not any(f"status of {status} " in entry["message"] for status in allowed_status)]
    failures = []
    answers = 0
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        method, params = message.get("method"), message.get("params", {})
        if method == "Network.responseReceived":
            answers += 1
            response = params["response"]
            if response["status"] >= 400 and response["status"] not in allowed_status:
                failures.append(f"{response['status']} {response['url']}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            failures.append(f"{params.get('errorText')} ({params.get('type')})")
        elif method == "Network.webSocketFrameError":
            failures.append(f"WebSocket: {params.get('errorMessage')}")
    assert not console, "console: " + " | ".join(entry["message"] for entry in console)
    assert not failures, "requests: " + " | ".join(failures)
    return f"no console error, {answers} responses, none failed"


def screenshot_to(driver, directory, name):
    def take():
        if not directory:
            return
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, name)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(path)
        print(f"     screenshot {path} ({os.path.getsize(path) // 1024} KB)", flush=True)
    return take


def wait_until_ready(url, seconds=60):
    """/readyz answers 200 once the model is loaded and warmed."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"test-browser: {url}/readyz is not 200 after {seconds} s")
        time.sleep(0.2)


def main():
    arguments = parse_arguments()
    url = arguments.url.rstrip("/")
    wait_until_ready(url)
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="digits-browser-") as scratch:
        clip, clip_digits = slowed_clip(scratch, arguments.clip_fps)

        driver = start_browser(arguments, clip=clip)
        try:
            checks.run("desktop: the page loads", open_page, driver, url)
            checks.run("desktop: a 1 drawn with a mouse", draw_and_read, driver, ONE, interaction.POINTER_MOUSE, "1")
            checks.run("desktop: a 4 drawn with a pen, two strokes", draw_and_read, driver, FOUR, interaction.POINTER_PEN, "4")
            checks.run("desktop: 72 drawn in number mode", draw_and_read, driver, SEVENTY_TWO,
                       interaction.POINTER_MOUSE, "72", "number")
            checks.run("desktop: upload a small picture", upload, driver, "seven.png", 7)
            checks.run("desktop: upload a photo", upload, driver, "eight-photo-400.png", 8)
            checks.run("desktop: upload a letter", upload_not_a_digit, driver, "letter-p.jpg")
            checks.run("desktop: a 7 drawn with a pen", draw_and_read, driver, SEVEN, interaction.POINTER_PEN, "7")
            checks.run("desktop: the camera (fake device playing the clip)", camera, driver, clip_digits,
                       screenshot_to(driver, arguments.screenshots, "serve-desktop.png"))
            checks.run("desktop: console and network", logs_clean, driver)
        finally:
            driver.quit()

        driver = start_browser(arguments, phone=True)
        try:
            checks.run("phone: the page loads", open_page, driver, url)
            checks.run("phone: fits a 390 px screen", no_horizontal_scroll, driver)
            checks.run("phone: a 7 drawn with a finger", draw_and_read, driver, SEVEN, interaction.POINTER_TOUCH, "7")
            screenshot_to(driver, arguments.screenshots, "serve-phone.png")()
            checks.run("phone: an API error is shown", shows_api_error, driver, url)
            checks.run("phone: no camera to be had", camera_refused, driver)
            checks.run("phone: console and network", logs_clean, driver, (400,))
        finally:
            driver.quit()

    print(f"browser: {checks.passed} passed, {checks.failed} failed", flush=True)
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
