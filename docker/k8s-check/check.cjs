// check.cjs - offline, strict check of the manifests in docker/k8s/. Each
// document is checked twice against the Kubernetes schemas: strictly, field
// by field, against the API types of Kubernetes 1.30 that the npm package
// kubernetes-types declares (an unknown or misspelled field anywhere is an
// error, as with `kubectl apply --validate=strict`; scalar types and
// required fields too), and against the 1.27 JSON schemas that
// kubernetes-models compiles (value formats such as quantities). Then the
// fields and relations issue 5 and issue 20 ask for are asserted one by one,
// among them the shutdown timing: terminationGracePeriodSeconds above the
// preStop pause plus the drain timeout, wherever that is set (DRAIN_TIMEOUT
// or a --drain-timeout argument, which wins). `--self-test` then breaks the
// manifests in each known way (typos included) and requires the check to
// notice every one. CommonJS, so that the packages can live outside the
// source tree (docker/check-k8s.sh installs them in build/k8s-check/):
//   NODE_PATH=build/k8s-check/node_modules node docker/k8s-check/check.cjs [--self-test] [DIR]
// DIR defaults to docker/k8s.
"use strict";
const { readFileSync, readdirSync, statSync } = require("node:fs");
const { join, dirname } = require("node:path");
const { execFileSync } = require("node:child_process");
const { parseAllDocuments } = require("yaml");
const { Deployment } = require("kubernetes-models/apps/v1/Deployment");
const { Service } = require("kubernetes-models/v1/Service");
const { Namespace } = require("kubernetes-models/v1/Namespace");
const { HorizontalPodAutoscaler } = require("kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler");
const { PodDisruptionBudget } = require("kubernetes-models/policy/v1/PodDisruptionBudget");
const { NetworkPolicy } = require("kubernetes-models/networking.k8s.io/v1/NetworkPolicy");

const here = __dirname;
const repo = join(here, "..", "..");
const args = process.argv.slice(2);
const selfTest = args.includes("--self-test");
const dir = args.find((a) => !a.startsWith("--")) ?? join(repo, "docker", "k8s");

const MODELS = {
  "apps/v1/Deployment": Deployment,
  "v1/Service": Service,
  "v1/Namespace": Namespace,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
};
// The image's user (Dockerfile: USER 10001:10001).
const IMAGE_UID = 10001;
// The one place the version is set.
const VERSION = (readFileSync(join(repo, "include", "version.h"), "utf8")
  .match(/^#define SUDOKUD_VERSION "([^"]+)"$/m) ?? [])[1];

// ---- the API types of kubernetes-types, for the strict check ---------------
// Each <group>/<version>.d.ts declares one interface per API type: a field
// per line, "name?: Type;" (optional) or "name: Type;" (required), where Type
// is string, number, boolean, a literal ("v1"), number | string, Array<T>, a
// map "{ [name: string]: T; }" over three lines, or the name of an interface
// or type alias, local or imported from another file.
const TYPES_DIR = dirname(require.resolve("kubernetes-types/package.json"));
const typeFiles = new Map(); // "core/v1" -> { interfaces, aliases, imports }

function typeFile(rel) {
  if (typeFiles.has(rel)) return typeFiles.get(rel);
  const src = readFileSync(join(TYPES_DIR, rel + ".d.ts"), "utf8").split("\n");
  const f = { interfaces: new Map(), aliases: new Set(), imports: new Map() };
  let cur = null;
  for (let i = 0; i < src.length; i++) {
    const line = src[i];
    let m;
    if ((m = line.match(/^import \{ (.+) \} from "\.\.\/(.+)";$/))) {
      for (const n of m[1].split(", ")) f.imports.set(n, m[2]);
    } else if ((m = line.match(/^export type (\w+) = /))) {
      f.aliases.add(m[1]);
    } else if ((m = line.match(/^export interface (\w+) \{/))) {
      cur = new Map();
      f.interfaces.set(m[1], cur);
      if (line.endsWith("}")) cur = null;
    } else if (line === "}") {
      cur = null;
    } else if (cur && (m = line.match(/^ {4}([\w$-]+)(\??): (.+)$/))) {
      let type = m[3];
      if (type === "{") {
        const v = src[i + 1].match(/^ {8}\[\w+: string\]: (.+);$/);
        if (!v || src[i + 2] !== "    };") throw new Error(`${rel}.d.ts:${i + 1}: map not understood`);
        type = `{${v[1]}}`;
        i += 2;
      } else {
        type = type.replace(/;$/, "");
      }
      cur.set(m[1], { type, required: m[2] === "" });
    }
  }
  typeFiles.set(rel, f);
  return f;
}

// The file of an apiVersion: "apps/v1" -> apps/v1, "v1" -> core/v1,
// "networking.k8s.io/v1" -> networking/v1.
function fileOf(apiVersion) {
  const parts = String(apiVersion).split("/");
  if (parts.length === 1) return `core/${parts[0]}`;
  return `${parts[0].replace(/\.k8s\.io$/, "").split(".")[0]}/${parts[1]}`;
}

// strict(value, type, file, path, errors): every field known, every
// required field there, every scalar of its type.
function strict(value, type, file, path, errors) {
  const err = (msg) => errors.push(`${path || "/"}: ${msg}`);
  if (value === null || value === undefined) return;
  let m;
  if ((m = type.match(/^Array<(.+)>$/))) {
    if (!Array.isArray(value)) return err(`expected an array (${type})`);
    value.forEach((v, i) => strict(v, m[1], file, `${path}/${i}`, errors));
  } else if ((m = type.match(/^\{(.+)\}$/))) {
    if (typeof value !== "object" || Array.isArray(value)) return err(`expected a map (${m[1]})`);
    for (const [k, v] of Object.entries(value)) strict(v, m[1], file, `${path}/${k}`, errors);
  } else if (type === "string" || type === "number" || type === "boolean") {
    if (typeof value !== type) err(`expected a ${type}, got ${JSON.stringify(value)}`);
  } else if (type === "number | string") {
    if (typeof value !== "number" && typeof value !== "string") err(`expected a number or string`);
  } else if (/^"/.test(type)) {
    if (JSON.stringify(value) !== type) err(`expected ${type}, got ${JSON.stringify(value)}`);
  } else {
    const f = typeFile(file);
    if (f.aliases.has(type)) return; // Quantity, Time, ...: formats are kubernetes-models' part
    if (f.imports.has(type)) return strict(value, type, f.imports.get(type), path, errors);
    const fields = f.interfaces.get(type);
    if (!fields) return err(`unknown type ${type} in ${file}`);
    if (typeof value !== "object" || Array.isArray(value)) return err(`expected an object (${type})`);
    for (const [k, v] of Object.entries(value)) {
      const fd = fields.get(k);
      if (!fd) err(`unknown field "${k}" in ${type}`);
      else strict(v, fd.type, file, `${path}/${k}`, errors);
    }
    for (const [k, fd] of fields) if (fd.required && value[k] === undefined) err(`missing required field "${k}" of ${type}`);
  }
}

// ---- the daemon's variables --------------------------------------------------
// From its --help (the second column), when the binary is built; otherwise
// this check is skipped.
function knownEnv() {
  for (const bin of [process.env.SUDOKUD_BIN, join(repo, "build/sudokud")]) {
    if (!bin) continue;
    try {
      const help = execFileSync(bin, ["--help"], { encoding: "utf8" });
      const names = new Set();
      for (const line of help.split("\n")) {
        const m = line.match(/^\s+--\S+(?: \S+)?\s{2,}([A-Z][A-Z_]+)\s/);
        if (m) names.add(m[1]);
      }
      if (names.size > 0) return names;
    } catch {
      /* not built: skip */
    }
  }
  return null;
}

// Quantities as numbers: CPU in cores, memory in bytes.
function quantity(q) {
  const s = String(q);
  const m = s.match(/^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/);
  if (!m) return NaN;
  const mult = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  return parseFloat(m[1]) * (m[2] ? mult[m[2]] : 1);
}

// Every *.yaml under directory, recursively, in the order kubectl applies
// them (-R: sorted by path).
function load(directory) {
  const docs = [];
  const walk = (d) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/.test(f)) {
        for (const doc of parseAllDocuments(readFileSync(p, "utf8"))) {
          if (doc.errors.length) throw new Error(`${p}: ${doc.errors[0].message}`);
          const obj = doc.toJS();
          if (obj) docs.push({ file: p.slice(directory.length + 1), obj });
        }
      }
    }
  };
  walk(directory);
  return docs;
}

// The value of a flag in a container's args/command ("--x V" or "--x=V").
function flagOf(c, flag) {
  const argv = [...(c.command ?? []), ...(c.args ?? [])].map(String);
  let v;
  argv.forEach((a, i) => {
    if (a === flag && i + 1 < argv.length) v = argv[i + 1];
    else if (a.startsWith(flag + "=")) v = a.slice(flag.length + 1);
  });
  return v;
}

// Runs every check over docs; returns [{ok, name, detail}].
function check(docs, env) {
  const results = [];
  const t = (name, ok, detail = "") => results.push({ ok: !!ok, name, detail });
  const byKind = (k) => docs.filter((d) => d.obj.kind === k).map((d) => d.obj);

  for (const { file, obj } of docs) {
    const key = `${obj.apiVersion}/${obj.kind}`;
    const Model = MODELS[key];
    if (!Model) { t(`${file}: ${key} is a kind this check knows`, false); continue; }
    const errors = [];
    try { strict(obj, obj.kind, fileOf(obj.apiVersion), "", errors); } catch (e) { errors.push(e.message); }
    t(`${file}: ${key} ${obj.metadata?.name}: no unknown field, types and required fields (Kubernetes 1.30 types)`,
      errors.length === 0, errors.slice(0, 3).join("; "));
    let err = "";
    try { new Model(obj).validate(); } catch (e) { err = e.message; }
    t(`${file}: ${key} ${obj.metadata?.name}: valid against the Kubernetes 1.27 schema`, !err, err);
  }
  t("every file is a manifest: nothing else in the folder kubectl applies",
    docs.every((d) => /\.ya?ml$/.test(d.file)), docs.filter((d) => !/\.ya?ml$/.test(d.file)).map((d) => d.file).join(","));

  const [ns] = byKind("Namespace");
  const [dep] = byKind("Deployment");
  const [svc] = byKind("Service");
  const [hpa] = byKind("HorizontalPodAutoscaler");
  const [pdb] = byKind("PodDisruptionBudget");
  const [netpol] = byKind("NetworkPolicy");
  t("one Namespace, Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget and NetworkPolicy each",
    ["Namespace", "Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"]
      .every((k) => byKind(k).length === 1));
  if (!dep || !ns) return results;

  const nsName = ns.metadata?.name;
  t(`Namespace ${nsName}: Pod Security enforces the restricted profile`,
    ns.metadata?.labels?.["pod-security.kubernetes.io/enforce"] === "restricted");
  t("Namespace: applied first (kubectl -R applies files in path order)", docs[0]?.obj === ns, docs[0]?.file);
  const stray = docs.filter((d) => d.obj !== ns && d.obj.metadata?.namespace !== nsName).map((d) => d.file);
  t(`every other object is in namespace ${nsName}`, stray.length === 0, stray.join(","));

  const spec = dep.spec ?? {};
  const pod = spec.template?.spec ?? {};
  const podLabels = spec.template?.metadata?.labels ?? {};
  const containers = pod.containers ?? [];
  const c = containers[0] ?? {};
  const matches = (sel) => sel && Object.keys(sel).length > 0 &&
    Object.entries(sel).every(([k, v]) => podLabels[k] === v);
  const ports = Object.fromEntries((c.ports ?? []).map((p) => [p.name, p.containerPort]));
  const portOf = (p) => (typeof p === "number" ? p : ports[p]);
  const envOf = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
  const appPort = Number(flagOf(c, "--port") ?? envOf.PORT ?? 8080);

  t("Deployment: no spec.replicas (the HPA owns the count; apply must not reset it)",
    spec.replicas === undefined, `replicas ${spec.replicas}`);
  t("Deployment: the selector matches the pod labels", matches(spec.selector?.matchLabels));
  t(`Deployment: the image tag is SUDOKUD_VERSION of include/version.h (${VERSION})`,
    VERSION && String(c.image ?? "").endsWith(`:${VERSION}`), c.image);
  t("Deployment: one container, listening on the port that PORT sets",
    containers.length === 1 && Object.values(ports).includes(appPort), `ports ${JSON.stringify(c.ports)}, PORT ${appPort}`);
  const sp = c.startupProbe?.httpGet, rp = c.readinessProbe?.httpGet, lp = c.livenessProbe?.httpGet;
  t("Deployment: startup probe GET /livez on the service port",
    sp?.path === "/livez" && portOf(sp.port) === appPort, JSON.stringify(c.startupProbe));
  t("Deployment: readiness probe GET /readyz on the service port",
    rp?.path === "/readyz" && portOf(rp.port) === appPort, JSON.stringify(c.readinessProbe));
  t("Deployment: liveness probe GET /livez on the service port",
    lp?.path === "/livez" && portOf(lp.port) === appPort, JSON.stringify(c.livenessProbe));
  const req = c.resources?.requests ?? {}, lim = c.resources?.limits ?? {};
  t("Deployment: CPU and memory requests and limits, requests within limits",
    ["cpu", "memory"].every((r) => req[r] !== undefined && lim[r] !== undefined && quantity(req[r]) <= quantity(lim[r])),
    JSON.stringify(c.resources));
  // docs/operations.md, "Memory in all", under the default limits:
  // 70.3 MiB + 28.5 MiB a batch worker + 0.5 MiB an event loop + 8.5 MiB
  // a worker (the SE rater's work area); the hostile suite's peak was
  // 48 MiB. WORKERS defaults to the CPUs, at most 2.
  const loops = Number(envOf.THREADS ?? NaN), workers = Number(envOf.BATCH_WORKERS ?? 1);
  const rworkers = Number(envOf.WORKERS ?? Math.min(loops, 2));
  const bound = (70.3 + 28.5 * workers + 0.5 * loops + 8.5 * rworkers) * 2 ** 20;
  t("Deployment: memory request at least the measured peak (48 MiB), limit above the proven bound for its THREADS, WORKERS and BATCH_WORKERS",
    quantity(req.memory) >= 48 * 2 ** 20 && quantity(lim.memory) > bound,
    `${req.memory} / ${lim.memory}, bound ${(bound / 2 ** 20).toFixed(1)} MiB`);
  t("Deployment: the pod does not mount a service account token (it calls no API)",
    pod.automountServiceAccountToken === false);
  t("Deployment: replicas spread over nodes (topologySpreadConstraints)",
    (pod.topologySpreadConstraints ?? []).some((s) => s.topologyKey === "kubernetes.io/hostname" && matches(s.labelSelector?.matchLabels)));
  t("Deployment: Prometheus scrape annotations on the pods, on the service port",
    spec.template?.metadata?.annotations?.["prometheus.io/scrape"] === "true" &&
      Number(spec.template.metadata.annotations["prometheus.io/port"]) === appPort &&
      spec.template.metadata.annotations["prometheus.io/path"] === "/metrics");

  // Restricted Pod Security Standard, container and pod level.
  const psc = pod.securityContext ?? {};
  const csc = c.securityContext ?? {};
  const eff = (k) => (csc[k] !== undefined ? csc[k] : psc[k]);
  t("restricted: runAsNonRoot true", eff("runAsNonRoot") === true);
  t(`restricted: runs as uid ${IMAGE_UID} (the image's user), never 0`,
    eff("runAsUser") === IMAGE_UID, `runAsUser ${eff("runAsUser")}`);
  t("restricted: readOnlyRootFilesystem true", csc.readOnlyRootFilesystem === true);
  t("restricted: allowPrivilegeEscalation false", csc.allowPrivilegeEscalation === false);
  t("restricted: capabilities drop ALL, add nothing but NET_BIND_SERVICE",
    (csc.capabilities?.drop ?? []).includes("ALL") &&
      (csc.capabilities?.add ?? []).every((a) => a === "NET_BIND_SERVICE"), JSON.stringify(csc.capabilities));
  t("restricted: seccompProfile RuntimeDefault",
    (eff("seccompProfile")?.type ?? "") === "RuntimeDefault" ||
      (csc.seccompProfile === undefined && psc.seccompProfile?.type === "Localhost"));
  t("restricted: not privileged, no host namespaces, ports or paths",
    csc.privileged !== true && !pod.hostNetwork && !pod.hostPID && !pod.hostIPC &&
      (c.ports ?? []).every((p) => !p.hostPort) && (pod.volumes ?? []).every((v) => !v.hostPath));

  // Shutdown timing: pause, then at most the drain, within the grace period.
  const drainArg = flagOf(c, "--drain-timeout");
  const drain = Number(drainArg ?? envOf.DRAIN_TIMEOUT ?? 25);
  const preStop = c.lifecycle?.preStop ?? {};
  const cmd = preStop.exec?.command ?? [];
  const pause = preStop.sleep ? Number(preStop.sleep.seconds) : cmd[0] === "sleep" ? Number(cmd[1]) : 0;
  const grace = pod.terminationGracePeriodSeconds ?? 30;
  t(`Deployment: a preStop pause (${pause} s) before SIGTERM, so the endpoint removal comes first`, pause >= 1);
  t(`Deployment: terminationGracePeriodSeconds (${grace} s) above preStop (${pause} s) + drain timeout (${drain} s${drainArg !== undefined ? ", --drain-timeout" : ""})`,
    Number.isFinite(drain) && grace > pause + drain);
  t("Deployment: rolling update never goes below the replica count",
    spec.strategy?.rollingUpdate?.maxUnavailable === 0);
  if (env) {
    const unknown = Object.keys(envOf).filter((n) => !env.has(n));
    t("Deployment: every variable set is one the daemon reads (sudokud --help)", unknown.length === 0, unknown.join(","));
  }

  if (svc) {
    t("Service: selects the pods", matches(svc.spec?.selector));
    t("Service: targets the container's port",
      (svc.spec?.ports ?? []).length > 0 && svc.spec.ports.every((p) => portOf(p.targetPort ?? p.port) === appPort),
      JSON.stringify(svc.spec?.ports));
  }
  if (hpa) {
    const ref = hpa.spec?.scaleTargetRef ?? {};
    t("HPA: scales this Deployment", ref.apiVersion === "apps/v1" && ref.kind === "Deployment" && ref.name === dep.metadata?.name);
    const cpu = (hpa.spec?.metrics ?? []).find((m) => m.type === "Resource" && m.resource?.name === "cpu");
    t("HPA: on CPU utilization, which needs the CPU request set",
      cpu?.resource?.target?.type === "Utilization" && cpu.resource.target.averageUtilization > 0 && req.cpu !== undefined);
    t("HPA: at least 3 replicas, room above",
      (hpa.spec?.minReplicas ?? 1) >= 3 && hpa.spec?.maxReplicas > hpa.spec?.minReplicas,
      `min ${hpa.spec?.minReplicas} max ${hpa.spec?.maxReplicas}`);
  }
  if (pdb) {
    const min = hpa?.spec?.minReplicas ?? 1;
    t("PDB: selects the pods", matches(pdb.spec?.selector?.matchLabels));
    const mu = pdb.spec?.maxUnavailable, ma = pdb.spec?.minAvailable;
    t("PDB: allows a drain (some disruption) yet keeps replicas up",
      (mu !== undefined && Number(mu) >= 1 && Number(mu) < min) ||
        (ma !== undefined && Number(ma) >= 1 && Number(ma) < min), `maxUnavailable ${mu} minAvailable ${ma}`);
  }
  if (netpol) {
    const np = netpol.spec ?? {};
    t("NetworkPolicy: selects the pods, governs ingress and egress",
      matches(np.podSelector?.matchLabels) && ["Ingress", "Egress"].every((p) => (np.policyTypes ?? []).includes(p)));
    const ingPorts = (np.ingress ?? []).flatMap((r) => r.ports ?? [{}]);
    t("NetworkPolicy: ingress only on the service port",
      ingPorts.length > 0 && ingPorts.every((p) => portOf(p.port) === appPort && (p.protocol ?? "TCP") === "TCP"),
      JSON.stringify(np.ingress));
    t("NetworkPolicy: no egress (sudokud calls nothing)", Array.isArray(np.egress) && np.egress.length === 0);
  }
  return results;
}

// Each mutation breaks the manifests in one way; the check must then fail.
// The first ones are the typos of issue 20 that the old check let through.
const MUTATIONS = [
  ["typo automountServiceAccountTokn", (d) => { d.pod.automountServiceAccountTokn = false; delete d.pod.automountServiceAccountToken; }],
  ["typo topologySpreadConstraint", (d) => { d.pod.topologySpreadConstraint = d.pod.topologySpreadConstraints; delete d.pod.topologySpreadConstraints; }],
  ["preStop exec with typo comand", (d) => { d.c.lifecycle.preStop = { exec: { comand: ["sleep", "5"] } }; }],
  ["preStop sleep with typo second", (d) => { d.c.lifecycle.preStop = { sleep: { second: 5 } }; }],
  ["--drain-timeout 120 under a 40 s grace period", (d) => { d.c.args = ["--drain-timeout", "120"]; }],
  ["--drain-timeout=120", (d) => { d.c.args = ["--drain-timeout=120"]; }],
  ["DRAIN_TIMEOUT 35", (d) => { d.c.env.find((e) => e.name === "DRAIN_TIMEOUT").value = "35"; }],
  ["typo in metadata (lables)", (d) => { d.dep.spec.template.metadata.lables = d.dep.spec.template.metadata.labels; }],
  ["typo in the Service (selecter)", (d) => { d.svc.spec.selecter = d.svc.spec.selector; }],
  ["typo in the NetworkPolicy (podSelecter)", (d) => { d.netpol.spec.podSelecter = {}; }],
  ["replicas 3 in the Deployment", (d) => { d.dep.spec.replicas = 3; }],
  ["image tag other than the version", (d) => { d.c.image = "sudokud:latest"; }],
  ["no startup probe", (d) => { delete d.c.startupProbe; }],
  ["readiness on /livez", (d) => { d.c.readinessProbe.httpGet.path = "/livez"; }],
  ["no liveness probe", (d) => { delete d.c.livenessProbe; }],
  ["no memory limit", (d) => { delete d.c.resources.limits.memory; }],
  ["BATCH_WORKERS 2 under the 128Mi limit", (d) => { d.c.env.push({ name: "BATCH_WORKERS", value: "2" }); d.c.env = d.c.env.filter((e, i, a) => e.name !== "BATCH_WORKERS" || i === a.length - 1); }],
  ["WORKERS 4 under the 128Mi limit", (d) => { d.c.env.push({ name: "WORKERS", value: "4" }); d.c.env = d.c.env.filter((e, i, a) => e.name !== "WORKERS" || i === a.length - 1); }],
  ["memory limit 64Mi, under the bound", (d) => { d.c.resources.limits.memory = "64Mi"; }],
  ["writable root", (d) => { d.c.securityContext.readOnlyRootFilesystem = false; }],
  ["escalation allowed", (d) => { delete d.c.securityContext.allowPrivilegeEscalation; }],
  ["capabilities kept", (d) => { d.c.securityContext.capabilities.drop = ["NET_RAW"]; }],
  ["seccomp Unconfined", (d) => { d.c.securityContext.seccompProfile = { type: "Unconfined" }; d.pod.securityContext.seccompProfile = { type: "Unconfined" }; }],
  ["root user", (d) => { d.c.securityContext.runAsUser = 0; }],
  ["grace 20 s", (d) => { d.pod.terminationGracePeriodSeconds = 20; }],
  ["no preStop pause", (d) => { delete d.c.lifecycle; }],
  ["typo readinesProbe", (d) => { d.c.readinesProbe = d.c.readinessProbe; delete d.c.readinessProbe; }],
  ["grace as a string", (d) => { d.pod.terminationGracePeriodSeconds = "40"; }],
  ["bad quantity", (d) => { d.c.resources.requests.cpu = "a lot"; }],
  ["container without a name", (d) => { delete d.c.name; }],
  ["service on 9090", (d) => { d.svc.spec.ports[0].targetPort = 9090; }],
  ["HPA on memory", (d) => { d.hpa.spec.metrics[0].resource.name = "memory"; }],
  ["PDB minAvailable 3", (d) => { delete d.pdb.spec.maxUnavailable; d.pdb.spec.minAvailable = 3; }],
  ["namespace baseline", (d) => { d.ns.metadata.labels["pod-security.kubernetes.io/enforce"] = "baseline"; }],
  ["object outside the namespace", (d) => { delete d.svc.metadata.namespace; }],
  ["egress opened", (d) => { d.netpol.spec.egress = [{}]; }],
  ["package.json beside the manifests", (d, docs) => { docs.push({ file: "check/package.json", obj: { name: "x", version: "1.0.0" } }); }],
];

function print(results, prefix = "") {
  for (const r of results) console.log(`${prefix}${r.ok ? "ok  " : "FAIL"} - ${r.name}${!r.ok && r.detail ? ` (${r.detail})` : ""}`);
}

const docs = load(dir);
const env = knownEnv();
const results = check(docs, env);
print(results);
if (!env) console.log("skip - variables against sudokud --help (build/sudokud not built)");
let passed = results.filter((r) => r.ok).length;
let failed = results.length - passed;

if (selfTest) {
  for (const [name, mutate] of MUTATIONS) {
    const copy = structuredClone(docs);
    const find = (k) => copy.find((d) => d.obj.kind === k)?.obj;
    const dep = find("Deployment");
    const pod = dep.spec.template.spec;
    mutate({ dep, pod, c: pod.containers[0], svc: find("Service"), ns: find("Namespace"),
             hpa: find("HorizontalPodAutoscaler"), pdb: find("PodDisruptionBudget"),
             netpol: find("NetworkPolicy") }, copy);
    const caught = check(copy, env).filter((r) => !r.ok);
    const ok = caught.length > 0;
    console.log(`${ok ? "ok  " : "FAIL"} - self-test: "${name}" is caught` +
      (ok ? ` (${caught[0].name}${caught[0].detail ? `: ${caught[0].detail.slice(0, 100)}` : ""})` : ""));
    ok ? passed++ : failed++;
  }
}
console.log(`k8s: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
