#!/usr/bin/env python3
"""The comparison service for `digits serve`, written the usual Python way.
FastAPI on uvicorn (uvloop, httptools), one worker process per core, torch
limited to one thread per worker; Pillow decodes the picture, a pipeline
makes the 28x28, and torch.jit runs Models/digits.pt on it, one picture per
forward pass (no batching across requests). The pipeline is one of:

- `plain` (the default): the few MNIST-style steps a user would write
  (Benchmarks/plain_mnist.py) after Pillow's `convert("L")`;
- `reference`: the same work as digits, the numpy reference of its pipeline
  (Tests/Tools/reference_preprocess.py, with scipy's labelling as
  Benchmarks/python_files_baseline.py swaps it in) after the reference decoder.

    python="$(Benchmarks/serve/python-env)"
    "$python" Benchmarks/serve/python_service.py [--host 127.0.0.1] [--port 0] [--workers 2]
        [--pipeline plain|reference] [--model Models/digits.pt]

Prints `listening on http://HOST:PORT` on standard output once the socket is
bound (as `digits serve` does; the workers load the model after that: poll
GET /healthz, which answers once a worker is up).

    POST /v1/classify   body: one picture (PNG, JPEG, PNM, ...; sniffed)
        200 {"digit": 7, "confidence": 0.998}
        200 {"digit": null, "reason": "no digit found"}
        200 {"digit": null, "reason": "not a digit", "not_a_digit": 0.97}
        400 {"error": "...", "code": "undecodable_picture"}
    GET /healthz, GET /readyz   200 {"status": "ok"}, {"status": "ready"}

The handler is `async def` and does its CPU work inline: with the GIL and one
torch thread per worker, a thread pool would only add switching; the
parallelism is the workers'.
"""

import argparse
import io
import math
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# One thread per worker for every library that reads these, before they load.
for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

NOT_A_DIGIT_ANSWER = 0.9  # Prediction.notADigitAnswer in DigitKit


def plain_pipeline():
    """Pillow's grey and Benchmarks/plain_mnist.py's steps."""
    import numpy as np
    from PIL import Image
    from plain_mnist import plain_field

    def gray_of(body):
        return np.asarray(Image.open(body).convert("L"))

    return gray_of, plain_field


def reference_pipeline():
    """The reference decoder and the numpy reference of digits' pipeline."""
    # Importing the files baseline swaps scipy's labelling into the reference.
    import python_files_baseline  # noqa: F401
    from reference_preprocess import field_from_gray
    from reference_decode import reference_gray

    return reference_gray, field_from_gray


def load_worker():
    """Imports the pipeline and loads the model; run in each worker."""
    import numpy as np
    import torch
    from PIL import UnidentifiedImageError

    sys.path[:0] = [os.path.join(ROOT, "Benchmarks"), os.path.join(ROOT, "Tests", "Tools")]
    from reference_preprocess import MEAN, STD

    pipelines = {"plain": plain_pipeline, "reference": reference_pipeline}
    gray_of, field_of = pipelines[os.environ.get("DIGITS_SERVE_PIPELINE", "plain")]()
    torch.set_num_threads(1)
    model = torch.jit.load(os.environ.get("DIGITS_SERVE_MODEL", os.path.join(ROOT, "Models", "digits.pt"))).eval()

    def classify(body):
        try:
            gray = gray_of(io.BytesIO(body))
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
            return None, f"cannot decode the picture: {error}"
        field = field_of(gray)
        if field is None:
            return {"digit": None, "reason": "no digit found"}, None
        tensor = (field.astype(np.float32) / np.float32(255) - MEAN) / STD
        with torch.inference_mode():
            logp = model(torch.from_numpy(tensor)[None, None])[0].tolist()
        digit = max(range(10), key=lambda d: logp[d])
        confidence = math.exp(logp[digit])
        not_a_digit = math.exp(logp[10]) if len(logp) > 10 else 0.0
        if not_a_digit > confidence and not_a_digit >= NOT_A_DIGIT_ANSWER:
            return {"digit": None, "reason": "not a digit", "not_a_digit": not_a_digit}, None
        return {"digit": digit, "confidence": confidence}, None

    classify(_warm_up_png())
    return classify


def _warm_up_png():
    """A 28x28 PNG of a bar, made with Pillow, for the first forward pass."""
    from PIL import Image, ImageDraw

    image = Image.new("L", (28, 28), 255)
    ImageDraw.Draw(image).rectangle([12, 4, 15, 23], fill=0)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def make_app():
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

    app = FastAPI(title="digits comparison service")
    classify = load_worker()

    @app.post("/v1/classify")
    async def classify_route(request: Request):
        result, error = classify(await request.body())
        if error is not None:
            return JSONResponse({"error": error, "code": "undecodable_picture"}, status_code=400)
        return result

    @app.get("/healthz")
    async def healthz():
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz():  # the model is loaded before the worker serves at all
        return {"status": "ready"}

    return app


# uvicorn's workers import this module and find `app` here.
app = make_app() if os.environ.get("DIGITS_SERVE_WORKER") == "1" else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pipeline", choices=("plain", "reference"), default="plain")
    parser.add_argument("--model", default=os.path.join(ROOT, "Models", "digits.pt"))
    args = parser.parse_args()

    import uvicorn

    # Bound here so that --port 0 works with several workers: uvicorn hands
    # this socket to each of them.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    host, port = sock.getsockname()[:2]
    print(f"listening on http://{host}:{port}", flush=True)
    os.environ["DIGITS_SERVE_WORKER"] = "1"
    os.environ["DIGITS_SERVE_MODEL"] = os.path.abspath(args.model)
    os.environ["DIGITS_SERVE_PIPELINE"] = args.pipeline
    sys.path.insert(0, HERE)
    uvicorn.run("python_service:app", fd=sock.fileno(), workers=args.workers, app_dir=HERE,
                loop="uvloop", http="httptools", log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
