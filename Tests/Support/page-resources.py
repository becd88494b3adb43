#!/usr/bin/python3
"""Opens each page given in headless Chromium, as a reviewer opens it from disk, and prints one
JSON object per page: where the browser ended up, every resource it fetched or tried to, each
image with whether it loaded, and the families of the web fonts it loaded. Evidence for the escape tests: what the page reached, not what our
code thinks it wrote.
Usage: page-resources.py PAGE.html..."""
import json, os, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=800,900"]:
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    for page in sys.argv[1:]:
        url = "file://" + os.path.abspath(page)
        driver.get(url)
        time.sleep(0.5)
        seen = driver.execute_script("""return {
            resources: performance.getEntriesByType('resource').map(e => e.name),
            images: [...document.images].map(i => ({src: i.currentSrc || i.src, loaded: i.complete && i.naturalWidth > 0})),
            text: document.body ? document.body.innerText : '',
            fonts: Array.from(document.fonts).filter(f => f.status == 'loaded').map(f => f.family.replace(/"/g, ''))}""")
        seen["page"] = page
        seen["final"] = driver.current_url
        seen["navigated"] = driver.current_url != url
        print(json.dumps(seen))
finally:
    driver.quit()
