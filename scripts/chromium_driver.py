"""Headless Chromium as every fidelity script drives it: Debian's chromium and chromium-driver
through python3-selenium, with the flags that make its layout and pixels repeatable.

A page is laid out at a real device scale: Chromium is started as a screen of that scale
(--force-device-scale-factor), as an iPhone or iPad is one, so it lays out in device pixels and
snaps line heights and borders to them. DevTools' Emulation.setDeviceMetricsOverride with a
deviceScaleFactor only magnifies what it lays out as at scale 1 (Inter 16 px lines: 20 px there,
19.5 on a real 2x screen, 19.667 on a 3x one), so it sets the viewport's size only."""
import re
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--font-render-hinting=none",
         "--disable-lcd-text", "--force-color-profile=srgb", "--allow-file-access-from-files"]
# The meta element a page we write states its device scale in (HTMLWriter.deviceScaleMeta).
SCALE_META = re.compile(r'<meta name="pushpreview-device-scale" content="(\d+(?:\.\d+)?)">')


def start(scale=1):
    """A Chromium whose screen has `scale` device pixels per CSS pixel."""
    options = webdriver.ChromeOptions()
    for flag in FLAGS + [f"--force-device-scale-factor={scale:g}"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.device_scale = scale
    return driver


def page_scale(page):
    """The device scale a page states (1 when it states none: Yoga's and hand-made pages)."""
    with open(page, encoding="utf-8", errors="replace") as f:
        found = SCALE_META.search(f.read(4096))
    return float(found.group(1)) if found else 1.0


def load(driver, page, width, height):
    """Opens `page` in a viewport of width × height CSS pixels and waits for its fonts."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": int(width), "height": int(-(-height // 1)), "deviceScaleFactor": 0, "mobile": False})
    driver.get("file://" + page)
    driver.execute_script("return document.fonts.ready.then(() => true)")
    ratio = driver.execute_script("return devicePixelRatio")
    if abs(ratio - driver.device_scale) > 1e-6:
        raise SystemExit(f"chromium: {page} has devicePixelRatio {ratio}, not the {driver.device_scale:g} Chromium was started at")


class Drivers:
    """One Chromium per device scale, started when a page first asks for it."""

    def __init__(self):
        self.by_scale = {}

    def __call__(self, scale):
        if scale not in self.by_scale:
            self.by_scale[scale] = start(scale)
        return self.by_scale[scale]

    def quit(self):
        for driver in self.by_scale.values():
            driver.quit()
