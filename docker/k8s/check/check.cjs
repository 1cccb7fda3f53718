// check.cjs - offline check of the manifests in docker/k8s/: each document
// is validated against the Kubernetes 1.27 schemas that the npm package
// kubernetes-models bundles (types, required fields, quantity formats; like
// kubeconform without --strict, unknown fields pass), then the fields issue 5
// asks for are asserted one by one, so a typo in any of them fails too.
// `--self-test` also breaks each asserted field in turn and requires the
// check to notice. CommonJS, so that the packages can live outside the source
// tree (docker/check-k8s.sh installs them in build/k8s-check/):
//   NODE_PATH=build/k8s-check/node_modules node docker/k8s/check/check.cjs [--self-test] [DIR]
// DIR defaults to docker/k8s, this file's parent.
"use strict";
const { readFileSync, readdirSync } = require("node:fs");
const { join } = require("node:path");
const { execFileSync } = require("node:child_process");
const { parseAllDocuments } = require("yaml");
const { Deployment } = require("kubernetes-models/apps/v1/Deployment");
const { Service } = require("kubernetes-models/v1/Service");
const { HorizontalPodAutoscaler } = require("kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler");
const { PodDisruptionBudget } = require("kubernetes-models/policy/v1/PodDisruptionBudget");

const here = __dirname;
const args = process.argv.slice(2);
const selfTest = args.includes("--self-test");
const dir = args.find((a) => !a.startsWith("--")) ?? join(here, "..");
const repo = join(here, "..", "..", "..");

const MODELS = {
  "apps/v1/Deployment": Deployment,
  "v1/Service": Service,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};
// The image's user (Dockerfile: USER 10001:10001).
const IMAGE_UID = 10001;

// The variables the daemon reads, from its --help (the second column), when
// the binary is built; otherwise this check is skipped.
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

function load(directory) {
  const docs = [];
  for (const f of readdirSync(directory).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    for (const d of parseAllDocuments(readFileSync(join(directory, f), "utf8"))) {
      if (d.errors.length) throw new Error(`${f}: ${d.errors[0].message}`);
      const obj = d.toJS();
      if (obj) docs.push({ file: f, obj });
    }
  }
  return docs;
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
    let err = "";
    try { new Model(obj).validate(); } catch (e) { err = e.message; }
    t(`${file}: ${key} ${obj.metadata?.name} is valid against the Kubernetes 1.27 schema`, !err, err);
  }

  const [dep] = byKind("Deployment");
  const [svc] = byKind("Service");
  const [hpa] = byKind("HorizontalPodAutoscaler");
  const [pdb] = byKind("PodDisruptionBudget");
  t("one Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget each",
    ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"].every((k) => byKind(k).length === 1));
  if (!dep) return results;

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
  const appPort = Number(envOf.PORT ?? 8080);

  t("Deployment: 3 replicas", spec.replicas === 3, `replicas ${spec.replicas}`);
  t("Deployment: the selector matches the pod labels", matches(spec.selector?.matchLabels));
  t("Deployment: one container, listening on the port that PORT sets",
    containers.length === 1 && Object.values(ports).includes(appPort), `ports ${JSON.stringify(c.ports)}, PORT ${appPort}`);
  const rp = c.readinessProbe?.httpGet, lp = c.livenessProbe?.httpGet;
  t("Deployment: readiness probe GET /readyz on the service port",
    rp?.path === "/readyz" && portOf(rp.port) === appPort, JSON.stringify(c.readinessProbe));
  t("Deployment: liveness probe GET /livez on the service port",
    lp?.path === "/livez" && portOf(lp.port) === appPort, JSON.stringify(c.livenessProbe));
  const req = c.resources?.requests ?? {}, lim = c.resources?.limits ?? {};
  t("Deployment: CPU and memory requests and limits, requests within limits",
    ["cpu", "memory"].every((r) => req[r] !== undefined && lim[r] !== undefined && quantity(req[r]) <= quantity(lim[r])),
    JSON.stringify(c.resources));

  // Restricted Pod Security Standard (Kubernetes 1.27), container and pod level.
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

  const drain = Number(envOf.DRAIN_TIMEOUT ?? 25);
  const pre = c.lifecycle?.preStop?.exec?.command ?? [];
  const preSleep = pre[0] === "sleep" ? Number(pre[1]) : 0;
  t(`Deployment: terminationGracePeriodSeconds above preStop (${preSleep} s) + DRAIN_TIMEOUT (${drain} s)`,
    (pod.terminationGracePeriodSeconds ?? 30) > preSleep + drain, `${pod.terminationGracePeriodSeconds}`);
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
    t("HPA: minReplicas at least the Deployment's replicas, maxReplicas above it",
      (hpa.spec?.minReplicas ?? 1) >= spec.replicas && hpa.spec?.maxReplicas > hpa.spec?.minReplicas,
      `min ${hpa.spec?.minReplicas} max ${hpa.spec?.maxReplicas}`);
  }
  if (pdb) {
    t("PDB: selects the pods", matches(pdb.spec?.selector?.matchLabels));
    const mu = pdb.spec?.maxUnavailable, ma = pdb.spec?.minAvailable;
    t("PDB: allows a drain (some disruption) yet keeps replicas up",
      (mu !== undefined && Number(mu) >= 1 && Number(mu) < spec.replicas) ||
        (ma !== undefined && Number(ma) >= 1 && Number(ma) < spec.replicas), `maxUnavailable ${mu} minAvailable ${ma}`);
  }
  return results;
}

// Each mutation breaks one asserted field; the check must then fail.
const MUTATIONS = [
  ["replicas 2", (d) => { d.dep.spec.replicas = 2; }],
  ["readiness on /livez", (d) => { d.c.readinessProbe.httpGet.path = "/livez"; }],
  ["no liveness probe", (d) => { delete d.c.livenessProbe; }],
  ["no memory limit", (d) => { delete d.c.resources.limits.memory; }],
  ["writable root", (d) => { d.c.securityContext.readOnlyRootFilesystem = false; }],
  ["escalation allowed", (d) => { delete d.c.securityContext.allowPrivilegeEscalation; }],
  ["capabilities kept", (d) => { d.c.securityContext.capabilities.drop = ["NET_RAW"]; }],
  ["seccomp Unconfined", (d) => { d.c.securityContext.seccompProfile = { type: "Unconfined" }; d.dep.spec.template.spec.securityContext.seccompProfile = { type: "Unconfined" }; }],
  ["root user", (d) => { d.c.securityContext.runAsUser = 0; }],
  ["grace 20 s", (d) => { d.dep.spec.template.spec.terminationGracePeriodSeconds = 20; }],
  ["typo readinesProbe", (d) => { d.c.readinesProbe = d.c.readinessProbe; delete d.c.readinessProbe; }],
  ["replicas as a string", (d) => { d.dep.spec.replicas = "3"; }],
  ["bad quantity", (d) => { d.c.resources.requests.cpu = "a lot"; }],
  ["service on 9090", (d) => { d.svc.spec.ports[0].targetPort = 9090; }],
  ["HPA on memory", (d) => { d.hpa.spec.metrics[0].resource.name = "memory"; }],
  ["PDB minAvailable 3", (d) => { delete d.pdb.spec.maxUnavailable; d.pdb.spec.minAvailable = 3; }],
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
    mutate({ dep, c: dep.spec.template.spec.containers[0], svc: find("Service"),
             hpa: find("HorizontalPodAutoscaler"), pdb: find("PodDisruptionBudget") });
    const caught = check(copy, env).filter((r) => !r.ok).map((r) => r.name);
    const ok = caught.length > 0;
    console.log(`${ok ? "ok  " : "FAIL"} - self-test: "${name}" is caught${ok ? ` (${caught[0]})` : ""}`);
    ok ? passed++ : failed++;
  }
}
console.log(`k8s: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
