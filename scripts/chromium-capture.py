#!/usr/bin/python3
"""Lays out each prepared fixture page in headless Chromium: box geometry of every element
with an id (getBoundingClientRect) and a screenshot at the same size and scale as ours; for a
Yoga fixture page (a yoga.txt beside it), every node of every case; for a Web Platform Test
page (a wpt.txt), every id'd element. Each page is laid out by a Chromium started at the real
device scale the page states (chromium_driver), one Chromium per scale.
Usage: chromium-capture.py WORKDIR. Uses Debian's chromium, chromium-driver, python3-selenium."""
import base64, json, os, sys
import chromium_driver

work = os.path.abspath(sys.argv[1])

# A Yoga fixture page: each case alone in the container, every element's box relative to the
# case root in document order, as written and with `direction: rtl` on the root.
YOGA_BOXES = """
    const container = document.getElementById('container');
    const cases = Array.from(container.children), out = {};
    for (const root of cases) {
        container.replaceChildren(root);
        const boxes = {}, style = root.getAttribute('style') || '';
        for (const direction of ['ltr', 'rtl']) {
            root.setAttribute('style', direction === 'rtl' ? 'direction: rtl; ' + style : style);
            const o = root.getBoundingClientRect();
            boxes[direction] = [root, ...root.querySelectorAll('*')].map(e => {
                if (e.getClientRects().length === 0) return null;  // display: none or contents
                const r = e.getBoundingClientRect();
                return [r.x - o.x, r.y - o.y, r.width, r.height];
            });
        }
        root.setAttribute('style', style);
        out[root.id] = boxes;
    }
    return out;"""
# A Web Platform Test page (a wpt.txt beside it): every element of the body, by id, its border
# box (null without one) and its computed display, at an 800 × 600 viewport.
WPT_BOXES = """
    const boxes = {}, displays = {};
    for (const e of document.querySelectorAll('body [id]')) {
        if (e.id in boxes) continue;
        const r = e.getBoundingClientRect();
        boxes[e.id] = e.getClientRects().length === 0 ? null : [r.x, r.y, r.width, r.height];
        displays[e.id] = getComputedStyle(e).display;
    }
    return {boxes, displays};"""
drivers = chromium_driver.Drivers()
try:
    for stem in sorted(os.listdir(work)):
        folder = os.path.join(work, stem)
        page = os.path.join(folder, "page.html")
        if not os.path.exists(page):
            continue
        driver = drivers(chromium_driver.page_scale(page))
        if os.path.exists(os.path.join(folder, "yoga.txt")):
            driver.get("file://" + page)
            driver.execute_script("return document.fonts.ready.then(() => true)")
            json.dump(driver.execute_script(YOGA_BOXES), open(os.path.join(folder, "chrome.json"), "w"))
            continue
        if os.path.exists(os.path.join(folder, "wpt.txt")):
            chromium_driver.load(driver, page, 800, 600)
            json.dump(driver.execute_script(WPT_BOXES), open(os.path.join(folder, "chrome.json"), "w"))
            continue
        size = json.load(open(os.path.join(folder, "size.json")))
        w, h = size["width"], max(1, size["height"])
        if size["scale"] != driver.device_scale:
            sys.exit(f"chromium-capture: {stem}: drawn at scale {size['scale']:g}, its page states {driver.device_scale:g}")
        chromium_driver.load(driver, page, w, h)
        boxes = driver.execute_script("""
            return Array.from(document.querySelectorAll('[id]')).map(e => {
                const r = e.getBoundingClientRect();
                return {id: e.id, x: r.x, y: r.y, width: r.width, height: r.height};
            });""")
        json.dump(boxes, open(os.path.join(folder, "chrome.json"), "w"))
        shot = driver.execute_cdp_cmd("Page.captureScreenshot",
                                      {"format": "png", "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1},
                                       "captureBeyondViewport": True})
        open(os.path.join(folder, "chrome.png"), "wb").write(base64.b64decode(shot["data"]))
finally:
    drivers.quit()
