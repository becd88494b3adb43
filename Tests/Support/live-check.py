#!/usr/bin/python3
"""Opens `pushpreview serve`'s page in headless Chromium and edits a template on disk while it
is open: the card's picture must change without a reload, keeping the scroll position, the
filter and the open details; the card then offers the picture before (before/after, onion
skin, difference) and a click shows a picture at 1:1 device pixels; a template that no longer parses must keep the last good picture
and show the finding (file and line) on the card; fixed, the picture follows again.
Prints JSON with what it saw (latencies in ms); exit status 1 on any failure.
Usage: live-check.py URL TEMPLATE PAYLOAD_STEM OLD NEW"""
import json, re, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import Select

url, template, stem, old, new = sys.argv[1:6]
options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,700"]:
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
problems, seen = [], {}

def picture():
    return driver.execute_script("""const i = [...document.querySelectorAll('img')].find(i => i.getAttribute('src').startsWith(arguments[0] + '/') && i.getAttribute('src').includes('-expanded.png'));
        return i ? i.getAttribute('src') : null""", stem)

def card_text():
    return driver.execute_script("""const i = [...document.querySelectorAll('img')].find(i => i.getAttribute('src').startsWith(arguments[0] + '/'));
        return i ? i.closest('article').textContent : ''""", stem)

def wait(condition, seconds=60):
    start = time.time()
    while time.time() - start < seconds:
        if condition(): return (time.time() - start) * 1000
        time.sleep(0.02)
    return None

def write(text):
    with open(template + ".tmp", "w") as f: f.write(text)
    import os; os.replace(template + ".tmp", template)  # as editors save: a new file renamed over

try:
    driver.get(url)
    if wait(lambda: picture() is not None) is None: raise SystemExit(f"no picture of {stem} on the page")
    first = picture()
    # What a reviewer has set up: a filter, an open details, a scroll position, and no reload.
    Select(driver.find_element("css selector", 'select[data-filter="device"]')).select_by_value("iphone-17")
    driver.execute_script("""window.notReloaded = true;
        const i = [...document.querySelectorAll('img')].find(i => i.getAttribute('src').startsWith(arguments[0] + '/'));
        i.closest('article').querySelector('details').open = true; window.scrollTo(0, 200);""", stem)
    scroll = driver.execute_script("return window.scrollY")
    source = open(template).read()
    if old not in source: raise SystemExit(f"{old!r} is not in {template}")
    write(source.replace(old, new))
    took = wait(lambda: picture() != first)
    if took is None: problems.append("the picture did not change after the edit")
    seen["editToPictureMs"] = took
    second = picture()
    state = driver.execute_script("""const i = [...document.querySelectorAll('img')].find(i => i.getAttribute('src').startsWith(arguments[0] + '/'));
        return {reloaded: !window.notReloaded, open: i.closest('article').querySelector('details').open, scroll: window.scrollY,
                filter: document.querySelector('select[data-filter="device"]').value}""", stem)
    seen["afterEdit"] = state
    if state["reloaded"]: problems.append("the page reloaded")
    if not state["open"]: problems.append("the open details closed")
    if state["filter"] != "iphone-17": problems.append("the filter was reset")
    if abs(state["scroll"] - scroll) > 1: problems.append(f"scrolled from {scroll} to {state['scroll']}")
    # The picture before the edit is kept: the card offers it, alone, as an onion skin or as the difference.
    def compare(mode):
        return driver.execute_script("""const i = [...document.querySelectorAll('img')].find(i => i.getAttribute('src').startsWith(arguments[0] + '/') && i.dataset.before);
            const s = i && i.closest('article').querySelector('select.compare');
            if (!s) return null;
            s.value = arguments[1]; s.dispatchEvent(new Event('change'));
            const over = i.parentNode.querySelector('img.before');
            return over && {before: over.getAttribute('src'), hidden: getComputedStyle(over).display === 'none', opacity: over.style.opacity}""", stem, mode)
    if wait(lambda: compare("difference") is not None, 20) is None: problems.append("the changed card offers no before/after")
    else:
        seen["difference"] = compare("difference")
        if not seen["difference"]["before"].startswith("difference/"): problems.append(f"difference: {seen['difference']}")
        if not compare("before")["before"].startswith("previous/"): problems.append("'before' does not show previous/")
        # Drawn as diff draws it, red where the pictures differ.
        drawn = driver.execute_async_script("""const [url, done] = arguments;
            fetch(url).then(r => done([r.status, r.headers.get('content-type'), +r.headers.get('x-differing-share')])).catch(e => done([0, String(e), 0]))""", seen["difference"]["before"])
        seen["differencePicture"] = drawn
        if drawn[0] != 200 or drawn[1] != "image/png" or not drawn[2] > 0: problems.append(f"the difference picture: {drawn}")
        if compare("after")["hidden"] is not True: problems.append("'now' still shows the picture before")
        if compare("before")["hidden"] is not False: problems.append("'before' does not show the picture before")
    # A click shows the picture at 1:1 device pixels.
    seen["oneToOne"] = driver.execute_script("""const i = [...document.querySelectorAll('img')].find(i => i.getAttribute('src').startsWith(arguments[0] + '/') && i.getAttribute('src').includes('-expanded.png'));
        i.click(); return [i.classList.contains('actual'), i.getBoundingClientRect().width * devicePixelRatio, i.naturalWidth]""", stem)
    if not seen["oneToOne"][0] or abs(seen["oneToOne"][1] - seen["oneToOne"][2]) > 1: problems.append(f"a click does not show 1:1: {seen['oneToOne']}")
    driver.execute_script("document.querySelector('img.actual')?.click()")
    # Broken: the last good picture stays, with the finding.
    write(source.replace(old, new) + "\n{{#unclosed}}\n")
    name = template.rsplit("/", 1)[-1]
    if wait(lambda: re.search(re.escape(name) + r":\d+: ", card_text())) is None: problems.append("the broken template's finding is not on the card")
    seen["brokenCard"] = card_text()[:400]
    if picture() != second: problems.append("the last good picture was not kept while the template was broken")
    # Fixed: the picture follows again.
    write(source)
    if wait(lambda: picture() not in (second, None) and "unclosed" not in card_text()) is None: problems.append("the picture did not follow the fix")
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    if errors: problems.append(f"console errors: {errors[:3]}")
finally:
    driver.quit()
print(json.dumps({"problems": problems, "seen": seen}))
sys.exit(1 if problems else 0)
