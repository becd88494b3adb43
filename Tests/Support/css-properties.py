#!/usr/bin/python3
"""Every CSS property headless Chromium knows (the names its getComputedStyle lists), each with
up to two values that Chromium accepts for it and that it computes differently from each other
and from a plain <div>'s default: the first such, in a fixed list of generic candidates. Prints
JSON: [{"name": ..., "values": [...]}]. Evidence for the no-silent-difference test: the property
list and what tells values apart come from the browser, not from us.
Usage: css-properties.py"""
import json
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CANDIDATES = [
    "none", "10px", "50%", "2", "0.5", "red", "2px solid red", "bold", "italic", "center", "hidden", "rtl", "column",
    "wrap", "flex", "grid", "absolute", "uppercase", "underline", "nowrap", "translate(2px, 3px)", "blur(2px)",
    "linear-gradient(red, blue)", "end", "space-between", "baseline", "ellipsis", "break-word", "contain", "cover",
    "scroll", "pointer", "dashed", "3", "serif", "always", "clip", "smooth", "fixed", "inset 1px 1px red",
    "2px 2px red", "10px 20px", "inline", "table", "both", "right", "bottom", "middle", "small-caps", "100", "lighter",
    "condensed", "no-repeat", "content-box", "multiply", "isolate", "1s", "ease-in", "infinite", "paused",
    "alternate", "forwards", "circle", "square", "inside", "collapse", "hide", "vertical-rl", "upright", "under",
    "wavy", "dotted", "pixelated", "-1", "round", "bevel", "evenodd", "auto", "1 / 3", "\"a\"", "x", "lowercase",
    "pre", "2 / 1", "max-content", "url(x.png)", "rotate(10deg)", "scale(2)", "3px", "always", "avoid", "all",
    "manual", "strict", "textfield", "economy", "exact", "dark", "only light", "stable", "thin", "smaller",
    "x-large", "italic bold 12px serif", "\"a\" \"b\"", "1 2", "row dense", "span 2", "start", "last baseline",
    "optimizeLegibility", "geometricPrecision", "balance", "anywhere", "loose", "inter-word", "distribute",
    "spell-out", "first", "each-line", "from-image", "0 0 0 0", "inset(10px)", "polygon(0 0, 1px 0, 0 1px)",
    "10px 10px 10px", "0.3s linear", "rgb(1, 2, 3)", "2px", "border-box", "10deg", "\"liga\" 0", "normal", "1", "0",
]

options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu"]:
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get("data:text/html,<!DOCTYPE html><body><div id=probe>text</div></body>")
    found = driver.execute_script("""
        const probe = document.getElementById('probe'), style = getComputedStyle(probe);
        const names = Array.from(style).filter(n => !n.startsWith('--')).sort();
        return names.map(name => {
            const seen = [style.getPropertyValue(name)], values = [];
            for (const value of arguments[0]) {
                if (values.length == 2) break;
                if (!CSS.supports(name, value)) continue;
                probe.style.setProperty(name, value);
                const after = getComputedStyle(probe).getPropertyValue(name);
                probe.style.removeProperty(name);
                if (!seen.includes(after)) { seen.push(after); values.push(value); }
            }
            return {name, values};
        });""", CANDIDATES)
    print(json.dumps(found))
finally:
    driver.quit()
