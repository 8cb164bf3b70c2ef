#!/usr/bin/env python3
"""A loopback Anthropic Messages API that answers every request with one text turn: the contents
of ANSWER_FILE. It prints its port on stdout once it listens, and appends the x-api-key header of
each request to KEYS_FILE (so a test can tell which key agent-run sent).

    test/ci/answer_model_server.py ANSWER_FILE KEYS_FILE
"""
import http.server
import json
import sys


def sse_event(name, data):
    return ("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode()


def answer_stream(text):
    usage = {"input_tokens": 100, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}
    return [
        sse_event("message_start", {"type": "message_start", "message": {
            "model": "claude-sonnet-4-5", "id": "msg_answer", "type": "message", "role": "assistant",
            "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}}),
        sse_event("content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "text", "text": ""}}),
        sse_event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                          "delta": {"type": "text_delta", "text": text}}),
        sse_event("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse_event("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                    "usage": dict(usage, output_tokens=20)}),
        sse_event("message_stop", {"type": "message_stop"}),
    ]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", "0")))
        with open(self.server.keys_file, "a") as keys:
            keys.write((self.headers.get("x-api-key") or "") + "\n")
        with open(self.server.answer_file) as answer:
            events = answer_stream(answer.read())
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(sum(len(e) for e in events)))
        self.end_headers()
        for event in events:
            self.wfile.write(event)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.answer_file, server.keys_file = sys.argv[1], sys.argv[2]
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
