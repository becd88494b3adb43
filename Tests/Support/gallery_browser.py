"""Headless Chromium as the gallery checks drive it: a desktop window (1280x900), pages read from
disk, the browser console kept so a check can fail on an error in it."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start():
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--window-size=1280,900"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
