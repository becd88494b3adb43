#!/usr/bin/env python3
"""The truth harness: our PNG of the same notification as each real iOS capture, measured by the
same code (scripts/chrome_measure.py) that measured the capture, each metric checked within 1 pt
(2 pt for text baselines). Fixtures: Tests/Fixtures/ios-captures/NAME.json (numbers and
provenance only; the images are not in the repository); those with an "ours" entry are drawn.

    python3 scripts/chrome-truth.py BINARY [--keep DIR]

Each capture is drawn in the look of its iOS version (iOS 26's for 26, iOS 18's for 15 to 18).
Prints the per-view table (within tolerance / recorded) and every miss; exits 1 when a metric of a
capture of a version the chrome draws (18, 26) misses; older captures are told, not held to.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chrome_measure as measure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINES = {"first_baseline", "last_baseline_to_bottom", "time_baseline", "title_to_body", "label_to_title"}
# capture metric name -> measure.run's derived name
DERIVED = {"inset_left": "inset_left", "inset_right": "inset_right", "platter_height": "platter_height",
           "corner.continuous_r": "corner_r_continuous", "icon.left_in_platter": "icon_left_in_platter",
           "text_left_in_platter": "text_left_in_platter", "time_trailing_inset": "time_trailing_inset",
           "first_baseline": "first_baseline_from_top", "last_baseline_to_bottom": "last_baseline_to_bottom",
           "time_baseline": "time_baseline_from_top", "menu.gap_below_platter": "platter_to_menu_gap",
           "menu.width": "menu_width", "menu.centre_offset_from_screen_centre": "menu_centre_offset_from_screen_centre",
           "menu.corner_continuous_r": "menu_corner_r_continuous"}


def spec_from_layout(boxes, view):
    """Hints from our layout JSON (where each box is), so one spec shape serves every device."""
    by = {b.get("id"): b for b in boxes if b.get("id")}
    n = by["notification"]
    x0, y0, x1, y1 = n["x"], n["y"], n["x"] + n["width"], n["y"] + n["height"]
    items = [{"name": "platter", "kind": "platter", "hint": [x0, y0, x1, y1], "fill_at": [(x0 + x1) / 2, y0 + 4], "in_off": 3,
              "corners": ["tl", "tr", "bl", "br"]}]
    icon = by.get("app-icon") if "sender-avatar" not in by else by["sender-avatar"]
    if icon and view != "expanded-custom":
        ix, iy = icon["x"], icon["y"]
        items.append({"name": "icon", "kind": "blob", "within": [ix - 3, iy - 3, ix + icon["width"] + 3, iy + icon["height"] + 3], "ref": "platter",
                      "threshold": 60, "extent_at": [ix + icon["width"] / 2, iy + icon["height"] / 2], "fill_at": [x0 + 5, iy + icon["height"] / 2]})
    t, tm = by.get("text"), by.get("time")
    if t:
        it = {"name": "text", "kind": "text", "within": [t["x"] - 1, t["y"] - 1, (tm["x"] - 2) if tm else t["x"] + t["width"], t["y"] + t["height"] + 1],
              "ref": "platter", "threshold": 70, "local_bg": 6, "line_gap": 0.6}
        if tm:
            it["time_within"] = [tm["x"] - 2, tm["y"] - 1, tm["x"] + tm["width"] + 2, tm["y"] + tm["height"] + 1]
        items.append(it)
    m = by.get("actions")
    if m:
        items.append({"name": "menu", "kind": "platter", "hint": [m["x"], m["y"], m["x"] + m["width"], m["y"] + m["height"]],
                      "fill_at": [m["x"] + m["width"] - 4, m["y"] + m["height"] / 2], "in_off": 3, "corners": ["tl"]})
    return {"full_width": True, "items": items}


def derived_value(d, name):
    v = d.get(DERIVED.get(name, ""))
    if name == "icon.size" and isinstance(d.get("icon_size"), list):
        v = d["icon_size"][0]
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--keep")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="chrome-truth-")
    project = os.path.join(work, "project")
    shutil.rmtree(project, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "Examples"), project)
    cats = json.load(open(os.path.join(project, "categories.json")))
    cats["categories"].append({"identifier": "menu-one", "actions": [{"identifier": "open", "title": "Open"}]})
    json.dump(cats, open(os.path.join(project, "categories.json"), "w"))
    folder = os.path.join(ROOT, "Tests/Fixtures/ios-captures")
    table, misses, failing = {}, [], 0
    for name in sorted(os.listdir(folder)):
        fx = json.load(open(os.path.join(folder, name)))
        o = fx.get("ours")
        if not o:
            continue
        ios = fx["name"].rsplit("ios", 1)[-1]
        drawn = "26" if int(ios) >= 26 else "18"
        payload = os.path.join(project, "payloads", fx["name"] + ".apns")
        json.dump(o["payload"], open(payload, "w"))
        out = os.path.join(work, "out")
        extra = ["--view", o["view"]] if o["view"] in ("lockscreen", "notification-center") else []
        r = subprocess.run([a.binary, "render", payload, "--project", project, "--out", out, "--device", o["device"], "--appearance", o["appearance"],
                            "--format", "png", "--layout-json", "--ios", drawn] + extra, capture_output=True, text=True)
        stem = os.path.join(out, fx["name"], f"{o['device']}-{o['appearance']}-{o['view']}")
        if r.returncode != 0 or not os.path.exists(stem + ".png"):
            print(f"{fx['name']}: not drawn: {r.stderr.strip()[:300]}", file=sys.stderr); failing += 1; continue
        layout = json.load(open(stem + ".layout.json"))
        boxes = layout["boxes"] if isinstance(layout, dict) else layout
        scale = 3 if o["device"].startswith("iphone") and o["device"] != "iphone-se-3" else 2
        res = measure.run(stem + ".png", scale, spec_from_layout(boxes, o["view"]))
        d = res["derived"]
        view = fx["view"]
        for metric, rec in fx["metrics_pt"].items():
            if metric not in DERIVED and metric != "icon.size" or metric in o.get("notComparable", {}).get("metrics", []):
                continue
            ours = derived_value(d, metric)
            if not isinstance(ours, (int, float)):
                continue
            tol = 2.0 if metric in BASELINES else 1.0
            ok = abs(ours - rec["value"]) <= tol
            key = (view, ios)
            t = table.setdefault(key, [0, 0]); t[1] += 1; t[0] += ok
            if not ok:
                misses.append(f"  {view:<8} iOS {ios:<3} {fx['name']:<32} {metric:<40} capture {rec['value']:>7.2f}  ours {ours:>7.2f}  Δ {ours - rec['value']:+.2f}")
                if ios in ("18", "26"):
                    failing += 1
    print("| view | iOS | within tolerance / recorded |\n|---|---|---|")
    for (view, ios), (ok, n) in sorted(table.items()):
        print(f"| {view} | {ios} | {ok} / {n} |")
    tot = [sum(v[0] for v in table.values()), sum(v[1] for v in table.values())]
    print(f"| all | | {tot[0]} / {tot[1]} |")
    if misses:
        print("misses (by view):"); print("\n".join(sorted(misses)))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
