"""Headless Chromium as every fidelity script drives it: Debian's chromium and chromium-driver
through python3-selenium, with the flags that make its layout and pixels repeatable."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--font-render-hinting=none",
         "--disable-lcd-text", "--force-color-profile=srgb", "--allow-file-access-from-files"]


def start():
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def load(driver, page, width, height, scale=1):
    """Opens `page` in a viewport of width × height CSS pixels and waits for its fonts."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": int(width), "height": int(-(-height // 1)), "deviceScaleFactor": scale, "mobile": False})
    driver.get("file://" + page)
    driver.execute_script("return document.fonts.ready.then(() => true)")
