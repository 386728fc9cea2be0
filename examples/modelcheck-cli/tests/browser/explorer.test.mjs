// The explorer in a real browser: Debian's chromium, driven by playwright-core. Starts the built
// `modelcheck explore` on a free port, clicks through 2PC-3 to a known state, runs the check on
// the broken lock and steps through its counterexample, checking what the page shows at each
// step; takes a screenshot under target/ and prints its path. Ends by itself: every wait has a
// timeout, and the servers and the browser are stopped in `finally`.
//
//   npm ci && node --test explorer.test.mjs    (MODELCHECK: the binary, default target/release)

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../../../..");
const BINARY = process.env.MODELCHECK || path.join(ROOT, "target/release/modelcheck");
const SHOTS = path.join(ROOT, "target/explorer-browser");
const WAIT_MS = 15_000;
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

// Starts `modelcheck explore ARGS`; resolves to { url, stop } once it prints its URL.
function startExplorer(args) {
  const child = spawn(BINARY, ["explore", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const stop = () => { if (child.exitCode === null) child.kill("SIGKILL"); };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error("no URL from " + args)); }, WAIT_MS);
    let seen = "";
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/^explorer: (http:\/\/\S+\/)$/m);
      if (found) { clearTimeout(timer); resolve({ url: found[1], stop }); }
    });
    child.on("error", (e) => { clearTimeout(timer); reject(e); });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error("exited " + code)); });
  });
}

async function apiState(url, indices) {
  const response = await fetch(url + "api/state?path=" + indices.join("/"));
  assert.equal(response.status, 200);
  return response.json();
}

async function clickAction(page, label) {
  await page.locator("#actions a", { hasText: label }).filter({ hasText: new RegExp("^" + escape(label) + "$") }).click();
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function propertyShown(page, name) {
  return page.locator(`#properties tr[data-property="${name}"] td`).nth(2).textContent();
}

// 2PC-3: every resource manager prepares, the TM hears all three and commits.
async function walk2pc(page, url) {
  await page.goto(url);
  await page.waitForURL(/#\/0$/);
  await assert.doesNotReject(page.locator("#state").getByText("tm=init").waitFor());
  const steps = ["RMPrepare(rm0)", "RMPrepare(rm1)", "RMPrepare(rm2)", "TMRcvPrepared(rm0)",
    "TMRcvPrepared(rm1)", "TMRcvPrepared(rm2)", "TMCommit"];
  for (const [i, label] of steps.entries()) {
    await clickAction(page, label);
    await page.locator("#depth").getByText("at depth " + (i + 1)).waitFor();
    assert.equal(await page.locator("#trail li").last().textContent(), label);
  }
  const committed = "rm=[prepared, prepared, prepared] tm=committed tmPrepared={rm0, rm1, rm2} " +
    "msgs={Prepared(rm0), Prepared(rm1), Prepared(rm2), Commit}";
  assert.equal(await page.locator("#state").textContent(), committed);
  assert.equal(await propertyShown(page, "TPConsistent"), "holds here");
  const hash = new URL(page.url()).hash;
  assert.match(hash, /^#\/0(\/\d+){7}$/);
  // The URL is the state: a fresh page on it shows the same state and path.
  const again = await page.context().newPage();
  await again.goto(url + hash);
  await again.locator("#depth").getByText("at depth 7").waitFor();
  assert.equal(await again.locator("#state").textContent(), committed);
  assert.equal(await again.locator("#trail li").count(), 8);
  await again.close();
  // A step back, then a successor again.
  await page.locator("#back").click();
  await page.locator("#depth").getByText("at depth 6").waitFor();
  assert.match(await page.locator("#state").textContent(), /tm=init/);
  await clickAction(page, "TMCommit");
  await page.locator("#depth").getByText("at depth 7").waitFor();
  // A malformed path in the URL: the page says so.
  await page.goto(url + "#/0/x");
  await page.locator("#error").getByText("malformed path").waitFor();
  await page.goto(url + "#/0/99");
  await page.locator("#error").getByText("is not enabled").waitFor();
}

// The broken lock: the check's counterexample, stepped through with Next.
async function stepThroughCounterexample(page, url) {
  await page.goto(url);
  await page.waitForURL(/#\/0$/);
  await page.locator("#check").click();
  await page.locator("#check-result").getByText("counterexample").waitFor();
  // The counterexample first, then the example of the lock's sometimes property.
  const open = page.locator(".open-trace");
  assert.equal(await open.count(), 2);
  assert.match(await open.nth(1).textContent(), /example \(CriticalReachable, \d+ steps?\)/);
  const counterexample = open.first();
  assert.match(await counterexample.textContent(), /counterexample \(MutualExclusion, 4 steps\)/);
  await counterexample.click();
  const check = await (await fetch(url + "api/check", { method: "POST" })).json();
  const trace = check.traces[0];
  for (let k = 0; k < trace.path.length; k++) {
    if (k > 0) await page.locator("#trace-next").click();
    await page.locator("#trace-position").getByText(`step ${k} of 4 `).waitFor();
    const expected = await apiState(url, trace.path.slice(0, k + 1));
    assert.equal(await page.locator("#state").textContent(), expected.state);
    assert.equal(new URL(page.url()).hash, "#/" + trace.path.slice(0, k + 1).join("/"));
    assert.equal(await propertyShown(page, "MutualExclusion"), k < 4 ? "holds here" : "violated here");
    if (k > 0) assert.equal(await page.locator("#trail li").last().textContent(), trace.actions[k - 1]);
  }
  assert.equal((await page.locator("#state").textContent()).match(/CRITICAL/g).length, 2);
  assert.ok(await page.locator("#trace-next").isDisabled());
  await page.locator("#trace-prev").click();
  await page.locator("#trace-position").getByText("step 3 of 4 ").waitFor();
  await page.locator("#trace-next").click();
  await page.locator("#trace-position").getByText("step 4 of 4 ").waitFor();
}

test("the explorer in chromium: 2PC-3 by clicks, the broken lock's counterexample", { timeout: 120_000 }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const profile = mkdtempSync(path.join(tmpdir(), "explorer-chromium-"));
  const servers = [];
  let context = null;
  let page = null;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium", headless: true, args: FLAGS,
      viewport: { width: 1100, height: 640 }, timeout: WAIT_MS,
    });
    context.setDefaultTimeout(WAIT_MS);
    page = await context.newPage();
    const twoPhase = await startExplorer(["2pc", "3"]);
    servers.push(twoPhase);
    await walk2pc(page, twoPhase.url);
    const buggy = await startExplorer(["buggy", "3"]);
    servers.push(buggy);
    await stepThroughCounterexample(page, buggy.url);
  } finally {
    if (page) {
      const shot = path.join(SHOTS, "explorer.png");
      await page.screenshot({ path: shot }).then(() => console.log("screenshot: " + shot), () => {});
    }
    if (context) await context.close();
    for (const server of servers) server.stop();
    rmSync(profile, { recursive: true, force: true });
  }
});
