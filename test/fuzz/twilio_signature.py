"""schemathesis hooks for the API fuzz run (test/fuzz/schemathesis.ts): signs the requests to Twilio's
callbacks (`/twilio/...`) as Twilio does, so the fuzzer reaches their form parsing and handlers instead
of stopping at 403.

X-Twilio-Signature = base64(HMAC-SHA1(auth token, full URL + each POST parameter's name and value, sorted
by name)) (https://www.twilio.com/docs/usage/webhooks/webhooks-security). The URL is the one the API
believes Twilio used: FUZZ_PUBLIC_BASE_URL (the API's PUBLIC_BASE_URL) and the path; the token is
FUZZ_TWILIO_AUTH_TOKEN. Values are written as `requests` writes a form (str(), None left out), so what
is signed is what is sent; a body that is not a form (negative cases) signs the URL alone.
"""
import base64
import hashlib
import hmac
import os
from urllib.parse import urlencode

import schemathesis


def _form_pairs(body):
    if not isinstance(body, dict):
        return []
    pairs = []
    for name, value in body.items():
        if value is None:
            continue
        for item in value if isinstance(value, list) else [value]:
            pairs.append((str(name), str(item)))
    return pairs


@schemathesis.auth(refresh_interval=None).apply_to(path_regex="^/twilio/")
class TwilioSignature:
    def get(self, case, context):
        return os.environ["FUZZ_TWILIO_AUTH_TOKEN"]

    def set(self, case, token, context):
        url = os.environ["FUZZ_PUBLIC_BASE_URL"] + case.formatted_path
        if case.query:
            url += "?" + urlencode(case.query, doseq=True)
        payload = url + "".join(name + value for name, value in sorted(_form_pairs(case.body)))
        digest = hmac.new(token.encode(), payload.encode(), hashlib.sha1).digest()
        case.headers = dict(case.headers or {})
        case.headers["X-Twilio-Signature"] = base64.b64encode(digest).decode()
