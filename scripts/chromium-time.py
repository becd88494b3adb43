#!/usr/bin/python3
"""Times headless Chromium screenshotting HTML pages at a device size (make bench's comparison).
Usage: chromium-time.py WIDTH SCALE PAGE... Prints seconds per page, startup excluded."""
import sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

width, scale, pages = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files"]:
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 800, "deviceScaleFactor": scale, "mobile": False})
    start = time.time()
    for page in pages:
        driver.get("file://" + page)
        driver.execute_script("return document.fonts.ready.then(() => true)")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                          "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    print("%.4f" % ((time.time() - start) / len(pages)))
finally:
    driver.quit()
