#!/usr/bin/python3
"""Opens OUTPUT/index.html in headless Chromium and checks what a designer relies on: no console
errors, the filters show exactly the matching cards, the failed input is listed, and images load
from disk. Prints one JSON object with what it saw; exit status 1 on any failure.
Usage: gallery-check.py OUTPUT FAILED_PAYLOAD_NAME"""
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gallery_browser
from selenium.webdriver.support.ui import Select

output, failed_name = os.path.abspath(sys.argv[1]), sys.argv[2]
driver = gallery_browser.start()
problems, seen = [], {}
try:
    driver.get("file://" + os.path.join(output, "index.html"))
    cards = lambda: driver.execute_script("""return [...document.querySelectorAll('.card')].map(c => ({
        device: c.dataset.device, appearance: c.dataset.appearance, outcome: c.dataset.outcome, hidden: c.hidden}))""")
    everything = cards()
    seen["cards"] = len(everything)
    if not everything: problems.append("no cards")
    for name, key in [("device", "device"), ("appearance", "appearance"), ("outcome", "outcome")]:
        select = Select(driver.find_element("css selector", f'select[data-filter="{name}"]'))
        values = [o.get_attribute("value") for o in select.options if o.get_attribute("value")]
        for value in values:
            select.select_by_value(value)
            now = cards()
            shown = [c for c in now if not c["hidden"]]
            expected = [c for c in everything if c[key] == value]
            if len(shown) != len(expected) or any(c[key] != value for c in shown):
                problems.append(f"filter {name}={value}: {len(shown)} shown, {len(expected)} expected")
            seen[f"{name}={value}"] = len(shown)
        select.select_by_value("")
    if sum(not c["hidden"] for c in cards()) != len(everything): problems.append("clearing the filters does not show every card")
    failed_text = driver.execute_script("const f = document.getElementById('failed'); return f ? f.textContent : ''")
    if failed_name not in failed_text: problems.append(f"{failed_name} is not listed among the failed inputs")
    # Lazy images load as they scroll into view, from files beside the page.
    images = driver.find_elements("css selector", ".card:not([hidden]) img")[:12]
    for img in images:
        driver.execute_script("arguments[0].scrollIntoView()", img)
    deadline, loaded = time.time() + 10, 0
    while time.time() < deadline:
        loaded = sum(driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img) for img in images)
        if loaded == len(images): break
        time.sleep(0.2)
    seen["images loaded"] = f"{loaded}/{len(images)}"
    if not images or loaded != len(images): problems.append(f"only {loaded} of {len(images)} images loaded")
    # On a phone's width every card fits the page: nothing runs off its right edge.
    driver.set_window_size(390, 900)
    overflow = driver.execute_script("""const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('.card:not([hidden])')].filter(c => c.getBoundingClientRect().right > w + 0.5).length""")
    seen["cards past a 390 px page's edge"] = overflow
    if overflow: problems.append(f"{overflow} cards run past the right edge of a 390 px wide page")
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    if errors: problems.append("console errors: " + "; ".join(errors[:3]))
finally:
    driver.quit()
print(json.dumps({"seen": seen, "problems": problems}))
sys.exit(1 if problems else 0)
