# The pit's dashboard in a real headless browser (issue 31.5): Debian's chromium driven by
# selenium through chromedriver. The floor page shows each table, an event appears without a
# reload, a tilt raises an alert, and every supervisor action asks for the credential. Every
# page needs a signed-in operator (issue 45.1): the browser signs in at the login page, and a
# viewer's session shows no action and cannot act.
# TAPIS_PIT_SCREENSHOT=FILE.png keeps a picture of the floor (docs/pit-floor.png is one).
import os
import shutil

import pytest

from pit_rig import ADMIN, CREDENTIAL, PitProcess, add_operator, every_table_dealt

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("Debian's chromium and chromium-driver are not installed (make install installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1500,1000"):
        options.add_argument(a)
    b = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    yield b
    b.quit()


def test_the_floor_live_in_a_browser_and_each_action_asks_for_the_credential(browser, tmp_path):
    pit = PitProcess("--floor", "4", "--pace", "0.3", "--tilt-rate", "0.1", db=str(tmp_path / "pit.db"))
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    try:
        floor = pit.wait(every_table_dealt(4, 1))
        browser.delete_all_cookies()
        browser.get(pit.url)  # not signed in: the login page
        wait.until(lambda b: b.find_elements(By.ID, "sign-in"))
        _sign_in(browser, ADMIN, "not the password")
        wait.until(lambda b: "Not a name and password" in b.find_element(By.ID, "why").text)
        _sign_in(browser, ADMIN, CREDENTIAL)
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#floor tbody tr")) == 4)
        wait.until(lambda b: "live" == b.find_element(By.ID, "live").text)
        for t in floor["tables"]:
            assert t["table"] in browser.find_element(By.ID, "floor").text
        # an event made now, without a reload: its line appears
        browser.execute_script("window.notReloaded = true")
        table = floor["tables"][0]["table"]
        assert pit.act(table, "verify").status_code == 200
        wait.until(lambda b: "software check" in b.find_element(By.ID, "events").text)
        # a tilt: an alert, and its clear asks for the credential (a wrong one is refused)
        alert = '#alerts .alert button[data-action="clear"]'
        locked = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, alert).get_attribute("data-table"))
        assert "TILT: table %s is locked" % locked in browser.find_element(By.ID, "alerts").text
        if os.environ.get("TAPIS_PIT_SCREENSHOT"):
            browser.save_screenshot(os.environ["TAPIS_PIT_SCREENSHOT"])
        _ask(browser, wait, alert, "guess")
        wait.until(lambda b: "not your password" in b.find_element(By.ID, "message").text)
        _ask(browser, wait, '#floor button.act[data-action="clear"][data-table="%s"]' % locked, CREDENTIAL)
        wait.until(lambda b: "cleared" in b.find_element(By.ID, "message").text)
        wait.until(lambda b: "clear" in b.find_element(By.ID, "events").text)
        assert browser.execute_script("return window.notReloaded") is True
        # one table's page: its seats, and a recalled deal told as tapis recall tells it
        browser.get(pit.url + "table/" + floor["tables"][0]["table"])
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#seats tbody tr"))
        # the board's own meters (a floor's table runs them, issue 45.4), checked against the records
        wait.until(lambda b: b.find_element(By.ID, "meters").is_displayed()
                   and "the deal records agree with them up to deal" in b.find_element(By.ID, "meters-say").text)
        assert not browser.find_element(By.ID, "meters-none").is_displayed()
        if os.environ.get("TAPIS_PIT_SCREENSHOT"):
            browser.save_screenshot(os.environ["TAPIS_PIT_SCREENSHOT"].replace(".png", "-table.png"))
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#deals li"))[-1].click()
        wait.until(lambda b: "as tapis recall tells it" in b.find_element(By.ID, "deal").text)
    finally:
        pit.stop()


def test_a_viewers_session_shows_no_action_and_cannot_act(browser, tmp_path):
    path = str(tmp_path / "pit.db")
    add_operator(path, "val", "viewer", "val-password")
    pit = PitProcess("--floor", "2", "--pace", "0.3", db=path)
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    try:
        pit.wait(every_table_dealt(2, 1))
        browser.delete_all_cookies()
        browser.get(pit.url + "login")
        _sign_in(browser, "val", "val-password")
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#floor tbody tr")) == 2)
        wait.until(lambda b: "val (viewer)" in b.find_element(By.ID, "operator").text)
        assert browser.find_elements(By.CSS_SELECTOR, "button.act") == []
        table = browser.find_element(By.CSS_SELECTOR, "#floor tbody tr").get_attribute("data-table")
        status = browser.execute_async_script(  # the page's own session, its CSRF token: still refused
            """const done = arguments[1];
            fetch("/api/me").then((r) => r.json()).then((me) => fetch(`/api/tables/${arguments[0]}/disable`, {
              method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": me.csrf},
              body: JSON.stringify({credential: "val-password"})})).then((r) => done(r.status));""", table)
        assert status == 403
        assert all(t["state"] == "running" for t in pit.get("/api/floor")["tables"])
    finally:
        pit.stop()


def _sign_in(browser, name, password):
    browser.find_element(By.NAME, "name").send_keys(name)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.ID, "sign-in").click()


def _ask(browser, wait, button, credential):
    """Press an action's button (a CSS selector): the password dialog opens, empty; fill it
    and confirm."""
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, button).click() or True)
    dialog = wait.until(EC.visibility_of_element_located((By.ID, "credential")))
    assert "admin, your password" in dialog.text
    box = dialog.find_element(By.NAME, "credential")
    assert box.get_attribute("value") == "" and box.get_attribute("type") == "password"
    box.send_keys(credential)
    dialog.find_element(By.ID, "confirm").click()
    wait.until(EC.invisibility_of_element_located((By.ID, "credential")))
