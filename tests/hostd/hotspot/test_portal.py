"""The captive portal: each platform's connectivity check, asked the way that platform asks,
gets the answer that makes it open the box's page; and only on the hotspot."""

from __future__ import annotations

import json

from hostd.hotspot.portal import CHECKS
from tests.hostd.hotspot.netpair import BOX_CAFE, BOX_HOTSPOT, floor

PAGE = f"http://{BOX_HOTSPOT}:8080/"
# What each platform fetches and what it takes for "online": anything else opens the sheet.
HOSTS = {
    "android": ("connectivitycheck.gstatic.com", 204, None),
    "ios": ("captive.apple.com", 200, "Success"),
    "windows": ("www.msftconnecttest.com", 200, "Microsoft Connect Test"),
    "firefox": ("detectportal.firefox.com", 200, "success"),
}

FETCH = """
import http.client, json, sys
out = {}
for name, host, path in CHECKS:
    try:
        c = http.client.HTTPConnection(ADDRESS, 80, timeout=3)
        c.request("GET", path, headers={"Host": host, "User-Agent": "Dalvik/2.1.0"})
        r = c.getresponse()
        out[name] = [r.status, r.getheader("Location"), r.getheader("Cache-Control"),
                     r.read().decode()]
    except OSError as e:
        out[name] = [type(e).__name__]
print(json.dumps(out))
"""


def test_each_platforms_check_opens_the_page_and_only_on_the_hotspot() -> None:
    with floor() as f:
        f.start_in_box(
            "import trio\nfrom hostd.hotspot.portal import serve_portal\n"
            "async def main():\n"
            "    async with trio.open_nursery() as n:\n"
            f"        await n.start(serve_portal, {BOX_HOTSPOT!r}, {PAGE!r})\n"
            "        print('ready', flush=True)\n"
            "trio.run(main)\n", "ready")
        checks = [(name, HOSTS[name][0], path) for name, path in CHECKS.items()]
        checks.append(("windows-redirect", "www.msftconnecttest.com", "/redirect"))
        checks.append(("typed", "example.org", "/some/page?q=1"))
        code = FETCH.replace("CHECKS", repr(checks)).replace("ADDRESS", repr(BOX_HOTSPOT))
        got = json.loads(f.run_in(f.phone, code))
        for name, (status, location, cache, body) in got.items():
            online = HOSTS.get(name)
            if online is not None:  # not what the platform takes for "online"
                assert status != online[1] or (online[2] and online[2] not in body)
            assert status == 302 and location == PAGE and cache == "no-store", (name, got)
            assert PAGE in body
        # From the café's side there is no portal at all.
        code = FETCH.replace("CHECKS", repr(checks[:1])).replace("ADDRESS", repr(BOX_CAFE))
        assert json.loads(f.run_in(f.cafe, code)) == {"android": ["ConnectionRefusedError"]}
