/// `GET /openapi.json`: the API as OpenAPI 3.1, checked against the server
/// by the tests (ServeOpenAPITests) and by schemathesis (scripts/test-schemathesis).
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "digits serve",
    "version": "1",
    "description": "Digits and numbers in pictures, with an honest confidence. Answers have the keys of the CLI's --json lines (docs/serve.md in the digits repository)."
  },
  "servers": [{"url": "/"}],
  "components": {
    "securitySchemes": {
      "bearer": {"type": "http", "scheme": "bearer", "description": "Asked for only when the server runs with --token-file."}
    },
    "parameters": {
      "uncertain_below": {"name": "uncertain_below", "in": "query", "required": false, "description": "Mark answers below this confidence uncertain (default 0.8).", "schema": {"type": "number", "minimum": 0, "maximum": 1}}
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": ["error", "code"],
        "properties": {
          "error": {"type": "string", "description": "One line naming the input and the cause."},
          "code": {"type": "string", "enum": ["undecodable_picture", "bad_option", "bad_request", "unauthorized", "not_found", "method_not_allowed", "deadline_exceeded", "body_too_large", "unsupported_media_type", "upgrade_required", "queue_full", "shutting_down", "model_failed", "internal_error"]}
        }
      },
      "Preprocessed": {
        "type": "object",
        "description": "The 28x28 picture the model was given: one byte a pixel, row by row, 0 paper and 255 ink, base64.",
        "required": ["width", "height", "pixels"],
        "properties": {
          "width": {"type": "integer", "const": 28},
          "height": {"type": "integer", "const": 28},
          "pixels": {"type": "string", "contentEncoding": "base64"}
        }
      },
      "Classification": {
        "type": "object",
        "description": "A digit; or \"digit\": null with the reason (\"no digit found\", \"not a digit\"); or, for a part of a multipart request that is no picture, \"error\".",
        "properties": {
          "file": {"type": "string", "description": "The part's filename (multipart only)."},
          "index": {"type": "integer", "minimum": 0, "description": "The part's position (multipart only)."},
          "digit": {"type": ["integer", "null"], "minimum": 0, "maximum": 9},
          "confidence": {"type": "number", "minimum": 0, "maximum": 1},
          "uncertain": {"type": "boolean"},
          "warnings": {"type": "array", "items": {"type": "string", "enum": ["several digits", "a blob, not strokes", "read from the located ink alone", "read inside a window", "read from other located ink"]}},
          "probabilities": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}, "minItems": 10, "maxItems": 10},
          "top": {"type": "array", "items": {"type": "object", "required": ["digit", "probability"], "properties": {"digit": {"type": "integer"}, "probability": {"type": "number"}}}},
          "reason": {"type": "string", "enum": ["no digit found", "not a digit"]},
          "not_a_digit": {"type": "number", "minimum": 0, "maximum": 1},
          "error": {"type": "string"},
          "preprocessed": {"$ref": "#/components/schemas/Preprocessed"}
        },
        "oneOf": [
          {"required": ["digit", "confidence", "uncertain", "probabilities"], "properties": {"digit": {"type": "integer"}}},
          {"required": ["digit", "reason"], "properties": {"digit": {"type": "null"}}},
          {"required": ["error"], "not": {"required": ["digit"]}}
        ]
      },
      "ClassificationResults": {
        "type": "object",
        "required": ["results"],
        "properties": {"results": {"type": "array", "items": {"$ref": "#/components/schemas/Classification"}}}
      },
      "Reading": {
        "type": "object",
        "properties": {
          "text": {"type": ["string", "null"]},
          "confidence": {"type": "number", "minimum": 0, "maximum": 1},
          "uncertain": {"type": "boolean"},
          "warnings": {"type": "array", "items": {"type": "string", "enum": ["not a digit", "ink left unread"]}},
          "digits": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["digit", "confidence", "box"],
              "properties": {
                "digit": {"type": ["integer", "null"]},
                "char": {"type": "string", "enum": [".", "-"]},
                "confidence": {"type": "number"},
                "box": {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 4}
              }
            }
          },
          "reason": {"type": "string"}
        },
        "oneOf": [
          {"required": ["text", "confidence", "uncertain", "digits"], "properties": {"text": {"type": "string"}}},
          {"required": ["text", "reason"], "properties": {"text": {"type": "null"}}}
        ]
      },
      "Status": {
        "type": "object",
        "required": ["status"],
        "properties": {"status": {"type": "string", "enum": ["ok", "ready", "loading", "draining"]}}
      }
    },
    "requestBodies": {
      "Picture": {
        "required": true,
        "description": "One PNG, JPEG or binary PNM picture; the format is read from the bytes.",
        "content": {
          "image/png": {"schema": {"type": "string", "format": "binary"}},
          "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
          "image/x-portable-anymap": {"schema": {"type": "string", "format": "binary"}},
          "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
        }
      },
      "Pictures": {
        "required": true,
        "description": "One picture as the body, or several as the parts of a multipart/form-data body.",
        "content": {
          "image/png": {"schema": {"type": "string", "format": "binary"}},
          "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
          "image/x-portable-anymap": {"schema": {"type": "string", "format": "binary"}},
          "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
          "multipart/form-data": {"schema": {"type": "object", "properties": {"file": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}
        }
      }
    },
    "responses": {
      "BadRequest": {"description": "The picture cannot be decoded, or an option is wrong.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unauthorized": {"description": "A bearer token is required (--token-file) and missing or wrong.", "headers": {"WWW-Authenticate": {"schema": {"type": "string", "const": "Bearer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Timeout": {"description": "The upload and the work took longer than --deadline-seconds.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "TooLarge": {"description": "The body is over --max-body.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unsupported": {"description": "The media type is not a picture this server reads.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Busy": {"description": "Too many pictures in progress (--max-queue), or the server is stopping; retry after Retry-After seconds.", "headers": {"Retry-After": {"schema": {"type": "integer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Failed": {"description": "The model failed.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    }
  },
  "paths": {
    "/v1/classify": {
      "post": {
        "operationId": "classify",
        "summary": "The digit in a picture, or in each of several.",
        "security": [{}, {"bearer": []}],
        "parameters": [
          {"name": "top", "in": "query", "required": false, "description": "Also list the K most probable digits, after \"not a digit\" too.", "schema": {"type": "integer", "minimum": 1, "maximum": 10}},
          {"name": "raw", "in": "query", "required": false, "description": "Only resize the picture to 28x28 (no photo preprocessing).", "schema": {"type": "boolean"}},
          {"name": "invert", "in": "query", "required": false, "description": "Invert so the ink is bright: auto, always, never (not with raw).", "schema": {"type": "string", "enum": ["auto", "always", "never"]}},
          {"$ref": "#/components/parameters/uncertain_below"},
          {"name": "preprocessed", "in": "query", "required": false, "description": "Add the 28x28 picture the model was given.", "schema": {"type": "boolean"}}
        ],
        "requestBody": {"$ref": "#/components/requestBodies/Pictures"},
        "responses": {
          "200": {"description": "The answer for one picture, or {\"results\": [...]} for a multipart body.", "content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/Classification"}, {"$ref": "#/components/schemas/ClassificationResults"}]}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "408": {"$ref": "#/components/responses/Timeout"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/Unsupported"},
          "500": {"$ref": "#/components/responses/Failed"},
          "503": {"$ref": "#/components/responses/Busy"}
        }
      }
    },
    "/v1/read": {
      "post": {
        "operationId": "read",
        "summary": "The number a picture shows.",
        "security": [{}, {"bearer": []}],
        "parameters": [
          {"name": "length", "in": "query", "required": false, "description": "The number has this many digits.", "schema": {"type": "integer", "minimum": 1, "maximum": 64}},
          {"$ref": "#/components/parameters/uncertain_below"}
        ],
        "requestBody": {"$ref": "#/components/requestBodies/Picture"},
        "responses": {
          "200": {"description": "The reading, or \"text\": null and the reason.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Reading"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "408": {"$ref": "#/components/responses/Timeout"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/Unsupported"},
          "500": {"$ref": "#/components/responses/Failed"},
          "503": {"$ref": "#/components/responses/Busy"}
        }
      }
    },
    "/v1/stream": {
      "get": {
        "operationId": "stream",
        "summary": "A WebSocket: binary messages are frames (JPEG, PNG, or \"GRAY\", width and height as little-endian uint16, then the grey bytes); text messages back are the events of `digits stream --json` ({\"event\": \"digit\" | \"clear\" | \"frame\" | \"error\" | \"dropped\", ...}).",
        "security": [{}, {"bearer": []}],
        "parameters": [
          {"name": "stable_frames", "in": "query", "required": false, "description": "Frames a digit must hold before it is reported.", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
          {"$ref": "#/components/parameters/uncertain_below"},
          {"name": "frames", "in": "query", "required": false, "description": "Also send one \"frame\" event per frame analysed, with its 28x28.", "schema": {"type": "boolean"}}
        ],
        "responses": {
          "101": {"description": "Switched to the WebSocket protocol."},
          "400": {"description": "The upgrade was refused (a bad option, or a token missing or wrong): a WebSocket upgrade that fails has no body."},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "426": {"description": "The request is not a WebSocket upgrade.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "health",
        "summary": "The process answers.",
        "responses": {"200": {"description": "Alive.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}}
      }
    },
    "/readyz": {
      "get": {
        "operationId": "ready",
        "summary": "Ready for work: the models are warmed and the server is not stopping (a readiness probe).",
        "responses": {
          "200": {"description": "Ready.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}},
          "503": {"description": "Loading or draining.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus metrics: requests by route and status, latency, batch sizes, queue depth, pictures per second.",
        "security": [{}, {"bearer": []}],
        "responses": {
          "200": {"description": "The Prometheus text format.", "content": {"text/plain": {"schema": {"type": "string"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"}
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {"200": {"description": "OpenAPI 3.1.", "content": {"application/json": {"schema": {"type": "object"}}}}}
      }
    },
    "/": {
      "get": {
        "operationId": "page",
        "summary": "The page: draw a digit, point a camera, or drop photos.",
        "responses": {"200": {"description": "HTML.", "content": {"text/html": {"schema": {"type": "string"}}}}}
      }
    }
  }
}
"""#
}
