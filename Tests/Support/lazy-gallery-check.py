#!/usr/bin/python3
"""Opens a gallery too large to place at once (OUTPUT/index.html, most cards waiting in
<template>s) in headless Chromium and checks what a reader relies on: the filters count every
card from the first paint, only a screenful is placed, scrolling places more in order, the
filters are kept in the URL and a link with them applies them, and a link to a card that was
never placed shows it. Prints one JSON object; exit status 1 on any failure.
Usage: lazy-gallery-check.py OUTPUT CARDS"""
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gallery_browser
from selenium.webdriver.support.ui import Select

output, total = os.path.abspath(sys.argv[1]), int(sys.argv[2])
page = "file://" + os.path.join(output, "index.html")
driver = gallery_browser.start()
problems, seen = [], {}
placed = lambda: driver.execute_script("return [...document.querySelectorAll('main .card:not([hidden])')].map(c => c.id)")
shown = lambda: driver.execute_script("return document.getElementById('shown').textContent")
try:
    driver.get(page)
    seen["shown"] = shown()
    if seen["shown"] != f"{total} of {total} shown": problems.append(f"the count says {seen['shown']!r}, not all {total}")
    first = placed()
    seen["placed"] = len(first)
    if not 0 < len(first) < total: problems.append(f"{len(first)} of {total} cards placed at first")
    Select(driver.find_element("css selector", 'select[data-filter="appearance"]')).select_by_value("dark")
    seen["dark"] = shown()
    if seen["dark"] != f"{total // 2} of {total} shown": problems.append(f"appearance=dark: {seen['dark']!r}")
    if any("|dark|" not in i for i in placed()): problems.append("a light card is shown under appearance=dark")
    seen["url"] = driver.current_url
    if "appearance=dark" not in seen["url"]: problems.append(f"the filter is not in the URL: {seen['url']}")
    Select(driver.find_element("css selector", 'select[data-filter="appearance"]')).select_by_value("")
    # Scrolling to the end places more, in the page's order.
    for _ in range(20):
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        time.sleep(0.2)
    after = placed()
    seen["placedAfterScrolling"] = len(after)
    if len(after) <= len(first): problems.append("scrolling placed no more cards")
    order = driver.execute_script("""return [...document.querySelectorAll('section.category')].map(s => [...s.querySelectorAll('.grid > .card')].map(c => c.id))""")
    expected = driver.execute_script("""return [...document.querySelectorAll('section.category')].map(s => {
        const t = s.querySelector('template.cards'); return [...s.querySelectorAll('.grid > .card')].map(c => c.id).concat(t ? [...t.content.children].map(c => c.id) : []); })""")
    for got, want in zip(order, expected):
        if got != sorted(got, key=want.index): problems.append("placed cards are out of the page's order"); break
    # A link: the filter from the query, the last card from the fragment.
    last = driver.execute_script("""const t = [...document.querySelectorAll('template.cards')].pop(); const c = t && [...t.content.children].filter(c => c.dataset.appearance === 'dark').pop();
        return c ? c.id : [...document.querySelectorAll('.card[data-appearance=dark]')].pop().id""")
    driver.get(page + "?appearance=dark#" + driver.execute_script("return encodeURIComponent(arguments[0])", last))
    time.sleep(1)  # what the page places as it settles must not push the card away
    state = driver.execute_script("""const c = document.getElementById(arguments[0]);
        return {filter: document.querySelector('select[data-filter="appearance"]').value, shown: document.getElementById('shown').textContent,
                placed: !!(c && c.isConnected && !c.hidden), target: document.querySelector(':target')?.id || null,
                inView: c ? c.getBoundingClientRect().top < innerHeight && c.getBoundingClientRect().bottom > 0 : false}""", last)
    seen["link"] = state
    if state["filter"] != "dark": problems.append("a link's filter was not applied")
    if not state["placed"] or not state["inView"]: problems.append(f"a link to a card that was never placed does not show it: {state}")
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    if errors: problems.append("console errors: " + "; ".join(errors[:3]))
finally:
    driver.quit()
print(json.dumps({"seen": seen, "problems": problems}))
sys.exit(1 if problems else 0)
