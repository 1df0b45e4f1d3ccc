package dev.tclab.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads every manifest under {@code deploy/kubernetes/} and checks what matters for a safe deployment: the app runs
 * with nothing beyond what it needs, its rights stop at the labs' namespace, its probes and environment name what
 * the app really serves and reads, and the wiring helper and isolation policy are the ones the runtime expects.
 */
class KubernetesManifestsTest {

    private static final Path DIR = Path.of("deploy/kubernetes");
    private static final String APP_NAMESPACE = "tclab";
    private static final String LAB_NAMESPACE = "tclab-labs";
    /** Settings the manifests may pass that are not tclab's own: Quarkus's proxy trust and the JVM's options. */
    private static final Set<String> OTHER_ENV = Set.of(
            "QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING",
            "QUARKUS_HTTP_PROXY_ALLOW_X_FORWARDED",
            "QUARKUS_HTTP_PROXY_TRUSTED_PROXIES",
            "JAVA_TOOL_OPTIONS");
    /**
     * Keys of the Kubernetes lab runtime (branch k1), which this branch's configuration does not have yet. The test
     * fails once one appears in {@link TclabConfig}, so the allowance goes when the runtime is merged.
     */
    private static final Map<String, List<JsonNode>> BY_KIND = new TreeMap<>();

    private static final List<String> FILES = new ArrayList<>();

    @BeforeAll
    static void readManifests() throws IOException {
        YAMLMapper yaml = new YAMLMapper();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                FILES.add(file.getFileName().toString());
                if (file.getFileName().toString().equals("kustomization.yaml")) {
                    continue;
                }
                for (JsonNode doc : yaml.readerFor(JsonNode.class)
                        .<JsonNode>readValues(file.toFile())
                        .readAll()) {
                    assertThat(doc.path("apiVersion").asText())
                            .as(file + ": apiVersion")
                            .isNotEmpty();
                    assertThat(doc.path("metadata").path("name").asText())
                            .as(file + ": metadata.name")
                            .isNotEmpty();
                    BY_KIND.computeIfAbsent(doc.path("kind").asText(), k -> new ArrayList<>())
                            .add(doc);
                }
            }
        }
    }

    @Test
    void kustomizationListsEveryManifest() throws IOException {
        JsonNode kustomization =
                new YAMLMapper().readTree(DIR.resolve("kustomization.yaml").toFile());
        List<String> listed = new ArrayList<>();
        kustomization.path("resources").forEach(r -> listed.add(r.asText()));
        assertThat(listed)
                .containsExactlyInAnyOrderElementsOf(FILES.stream()
                        .filter(f -> !f.equals("kustomization.yaml"))
                        .toList());
    }

    @Test
    void everyNamespacedObjectLivesInTheAppsOrTheLabsNamespace() {
        Set<String> clusterWide = Set.of(
                "Namespace",
                "ClusterRole",
                "ClusterRoleBinding",
                "ValidatingAdmissionPolicy",
                "ValidatingAdmissionPolicyBinding");
        BY_KIND.forEach((kind, docs) -> docs.stream()
                .filter(d -> !clusterWide.contains(kind))
                .forEach(d -> assertThat(d.path("metadata").path("namespace").asText())
                        .as(kind + " " + name(d))
                        .isIn(APP_NAMESPACE, LAB_NAMESPACE)));
        assertThat(one("Namespace", APP_NAMESPACE)
                        .path("metadata")
                        .path("labels")
                        .path("pod-security.kubernetes.io/enforce")
                        .asText())
                .isEqualTo("restricted");
        assertThat(one("Namespace", LAB_NAMESPACE)
                        .path("metadata")
                        .path("labels")
                        .path("pod-security.kubernetes.io/enforce")
                        .asText())
                .as("the only Pod Security level that admits NET_ADMIN")
                .isEqualTo("privileged");
    }

    @Test
    void theAppRunsAsTwoUnprivilegedReplicasWithProbesOnItsHealthEndpoints() {
        JsonNode deployment = one("Deployment", "tclab");
        assertThat(deployment.path("spec").path("replicas").asInt()).isEqualTo(2);
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("securityContext")
                        .path("seccompProfile")
                        .path("type")
                        .asText())
                .isEqualTo("RuntimeDefault");
        assertThat(pod.path("hostPID").asBoolean(false)).isFalse();
        assertThat(pod.path("hostNetwork").asBoolean(false)).isFalse();
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo("tclab");
        JsonNode app = pod.path("containers").get(0);
        JsonNode security = app.path("securityContext");
        assertThat(security.path("privileged").asBoolean(true)).isFalse();
        assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
        assertThat(security.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(texts(security.path("capabilities").path("drop"))).containsExactly("ALL");
        assertThat(security.path("capabilities").path("add").isMissingNode())
                .as("no capability added")
                .isTrue();
        assertThat(texts(app.path("volumeMounts"), "mountPath"))
                .as("a writable /tmp on the read-only root")
                .contains("/tmp");

        JsonNode port = app.path("ports").get(0);
        assertThat(port.path("containerPort").asInt()).as("quarkus.http.port").isEqualTo(8080);
        for (String[] probe : new String[][] {
            {"readinessProbe", "/q/health/ready"},
            {"livenessProbe", "/q/health/live"},
            {"startupProbe", "/q/health/started"}
        }) {
            JsonNode get = app.path(probe[0]).path("httpGet");
            assertThat(get.path("path").asText()).as(probe[0]).isEqualTo(probe[1]);
            assertThat(get.path("port").asText())
                    .as(probe[0] + " port")
                    .isEqualTo(port.path("name").asText());
        }
        JsonNode service = one("Service", "tclab");
        assertThat(service.path("spec").path("selector"))
                .isEqualTo(deployment.path("spec").path("selector").path("matchLabels"));
        assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText())
                .isEqualTo("http");
    }

    @Test
    void theAppsEnvironmentNamesOnlyKeysTheAppReadsAndSecretsThatExist() {
        Set<String> known = new HashSet<>();
        configKeys(TclabConfig.class, "tclab", known);
        Set<String> envOfKeys = new HashSet<>();
        known.forEach(k -> envOfKeys.add(k.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT)));
        assertThat(envOfKeys)
                .as("sanity: the walk found nested keys")
                .contains("TCLAB_DATABASE_URL", "TCLAB_LEARNER_COOKIE_SECRET", "TCLAB_LAB_KEEP_ON_SHUTDOWN");

        JsonNode secret = one("Secret", "tclab");
        JsonNode app = one("Deployment", "tclab")
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
        Map<String, String> values = new TreeMap<>();
        for (JsonNode env : app.path("env")) {
            String name = env.path("name").asText();
            assertThat(envOfKeys.contains(name) || OTHER_ENV.contains(name))
                    .as(name + " is a key the app reads")
                    .isTrue();
            JsonNode ref = env.path("valueFrom").path("secretKeyRef");
            if (!ref.isMissingNode()) {
                assertThat(ref.path("name").asText()).isEqualTo(name(secret));
                assertThat(secret.path("stringData").has(ref.path("key").asText()))
                        .as(name + "'s secret key")
                        .isTrue();
            } else {
                values.put(name, env.path("value").asText());
            }
        }
        assertThat(values)
                .containsEntry("TCLAB_DATABASE_KIND", "postgresql")
                .containsEntry("TCLAB_KUBERNETES_NAMESPACE", LAB_NAMESPACE)
                .containsEntry("TCLAB_RUNTIME", "kubernetes");
        assertThat(texts(app.path("env"), "name")).contains("TCLAB_DATABASE_PASSWORD", "TCLAB_LEARNER_COOKIE_SECRET");
        assertThat(values.get("TCLAB_DATABASE_URL"))
                .as("the reference PostgreSQL's Service")
                .startsWith("jdbc:postgresql://" + name(one("Service", "tclab-postgresql")) + "." + APP_NAMESPACE
                        + ".svc:5432/");
    }

    @Test
    void theAppsRightsStopAtTheLabsNamespaceAndAtNodeLabels() {
        assertThat(BY_KIND.get("Role")).as("namespaced roles").hasSize(1);
        JsonNode role = BY_KIND.get("Role").get(0);
        assertThat(role.path("metadata").path("namespace").asText()).isEqualTo(LAB_NAMESPACE);
        Set<String> allowed = Set.of(
                "pods:create",
                "pods:get",
                "pods:list",
                "pods:delete",
                "pods:deletecollection",
                "pods/exec:create",
                "pods/exec:get",
                "pods/attach:create",
                "pods/attach:get",
                "networkpolicies:get",
                "networkpolicies:create");
        for (JsonNode rule : role.path("rules")) {
            for (String resource : texts(rule.path("resources"))) {
                for (String verb : texts(rule.path("verbs"))) {
                    assertThat(resource + ":" + verb)
                            .as("a right the runtime uses")
                            .isIn(allowed);
                }
            }
        }
        for (JsonNode binding : BY_KIND.get("RoleBinding")) {
            assertThat(binding.path("metadata").path("namespace").asText()).isEqualTo(LAB_NAMESPACE);
            assertThat(binding.path("roleRef").path("name").asText()).isEqualTo(name(role));
            assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo("tclab");
            assertThat(binding.path("subjects").get(0).path("namespace").asText())
                    .isEqualTo(APP_NAMESPACE);
        }
        assertThat(BY_KIND.get("ClusterRole")).hasSize(1);
        for (JsonNode rule : BY_KIND.get("ClusterRole").get(0).path("rules")) {
            assertThat(texts(rule.path("resources")))
                    .as("cluster-wide, only nodes")
                    .containsExactly("nodes");
            assertThat(texts(rule.path("verbs"))).isSubsetOf("get", "patch");
        }
    }

    @Test
    void theWiringHelperAndTheIsolationPolicyAreTheRuntimesOwn() {
        JsonNode helper = one("DaemonSet", "tclab-wiring");
        assertThat(helper.path("metadata").path("namespace").asText()).isEqualTo(LAB_NAMESPACE);
        Map<String, String> labels =
                Map.of("tclab.app", "tclab", "tclab.role", "wiring", "tclab.helper", "tclab-wiring");
        assertThat(strings(helper.path("spec").path("selector").path("matchLabels")))
                .isEqualTo(labels);
        assertThat(strings(helper.path("spec").path("template").path("metadata").path("labels")))
                .isEqualTo(labels);
        JsonNode pod = helper.path("spec").path("template").path("spec");
        assertThat(pod.path("hostPID").asBoolean()).isTrue();
        assertThat(pod.path("hostNetwork").asBoolean(true)).isFalse();
        assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
        JsonNode security = pod.path("containers").get(0).path("securityContext");
        assertThat(security.path("privileged").asBoolean(true)).isFalse();
        assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
        assertThat(security.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(texts(security.path("capabilities").path("add"))).containsExactly("NET_ADMIN");
        assertThat(texts(security.path("capabilities").path("drop"))).containsExactly("ALL");

        JsonNode policy = one("NetworkPolicy", "tclab-labs-isolated");
        assertThat(policy.path("metadata").path("namespace").asText()).isEqualTo(LAB_NAMESPACE);
        assertThat(strings(policy.path("spec").path("podSelector").path("matchLabels")))
                .isEqualTo(Map.of("tclab.app", "tclab"));
        JsonNode roles = policy.path("spec").path("podSelector").path("matchExpressions");
        assertThat(roles).hasSize(1);
        assertThat(roles.get(0).path("key").asText()).isEqualTo("tclab.role");
        assertThat(roles.get(0).path("operator").asText()).isEqualTo("In");
        assertThat(texts(roles.get(0).path("values")))
                .as("a node's pod and a User-Mode Linux lab's pod")
                .containsExactlyInAnyOrder("node", "uml");
        assertThat(texts(policy.path("spec").path("policyTypes"))).containsExactlyInAnyOrder("Ingress", "Egress");
        assertThat(policy.path("spec").has("ingress") || policy.path("spec").has("egress"))
                .as("no rule: everything in and out is denied")
                .isFalse();
    }

    @Test
    void anAdmissionPolicyHoldsTheAppsPodsInTheLabsNamespaceToTheRuntimesHardening() {
        JsonNode policy = one("ValidatingAdmissionPolicy", "tclab-lab-pods");
        JsonNode binding = one("ValidatingAdmissionPolicyBinding", "tclab-lab-pods");
        assertThat(binding.path("spec").path("policyName").asText()).isEqualTo(name(policy));
        assertThat(texts(binding.path("spec").path("validationActions"))).containsExactly("Deny");
        assertThat(binding.path("spec")
                        .path("matchResources")
                        .path("namespaceSelector")
                        .path("matchLabels")
                        .path("kubernetes.io/metadata.name")
                        .asText())
                .isEqualTo(LAB_NAMESPACE);
        assertThat(policy.path("spec").path("failurePolicy").asText()).isEqualTo("Fail");
        JsonNode subject = BY_KIND.get("RoleBinding").get(0).path("subjects").get(0);
        String serviceAccount =
                "system:serviceaccount:" + subject.path("namespace").asText() + ":"
                        + subject.path("name").asText();
        assertThat(policy.path("spec")
                        .path("matchConditions")
                        .get(0)
                        .path("expression")
                        .asText())
                .as("the policy applies to the pods the app makes")
                .contains("'" + serviceAccount + "'");
        String validations = String.join("\n", texts(policy.path("spec").path("validations"), "expression"));
        assertThat(validations)
                .contains(
                        "hostPID",
                        "hostNetwork",
                        "hostIPC",
                        "hostPath",
                        "initContainers",
                        "privileged",
                        "allowPrivilegeEscalation",
                        "['NET_ADMIN', 'NET_RAW']");
    }

    @Test
    void everyPodButTheHelperKeepsToTheRestrictedLevel() {
        for (String kind : List.of("Deployment", "StatefulSet")) {
            for (JsonNode workload : BY_KIND.get(kind)) {
                JsonNode pod = workload.path("spec").path("template").path("spec");
                assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean())
                        .as(name(workload))
                        .isTrue();
                for (JsonNode container : pod.path("containers")) {
                    JsonNode security = container.path("securityContext");
                    assertThat(security.path("allowPrivilegeEscalation").asBoolean(true))
                            .as(name(workload))
                            .isFalse();
                    assertThat(texts(security.path("capabilities").path("drop")))
                            .as(name(workload))
                            .containsExactly("ALL");
                    assertThat(container.path("resources").path("limits").has("memory"))
                            .as(name(workload))
                            .isTrue();
                }
            }
        }
    }

    /** Every key of the mapping, e.g. {@code tclab.lab.keep-on-shutdown}, walking its nested groups. */
    private static void configKeys(Class<?> group, String prefix, Set<String> keys) {
        for (Method method : group.getMethods()) {
            String key = prefix + "."
                    + method.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
            Class<?> type = method.getReturnType();
            if (type.isInterface() && type.getEnclosingClass() == TclabConfig.class) {
                configKeys(type, key, keys);
            } else {
                keys.add(key);
            }
        }
    }

    private static JsonNode one(String kind, String name) {
        List<JsonNode> found = BY_KIND.getOrDefault(kind, List.of()).stream()
                .filter(d -> name(d).equals(name))
                .toList();
        assertThat(found).as(kind + " " + name).hasSize(1);
        return found.get(0);
    }

    private static String name(JsonNode doc) {
        return doc.path("metadata").path("name").asText();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path(field).asText()));
        return out;
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> out = new TreeMap<>();
        ((ObjectNode) object)
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
