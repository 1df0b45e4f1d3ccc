package dev.tclab.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.KernelChoice;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.arc.InjectableBean;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code tclab.runtime=kubernetes} picks the Kubernetes runtime, with the Kubernetes UML runtime beside it for lessons
 * whose kernel is their own, and the Docker runtime and its client are never built (no Docker socket is touched on a
 * cluster). The API server here is unreachable on purpose: the app starts
 * anyway and says so, as it does with a Docker engine that is down.
 */
@QuarkusTest
@TestProfile(KubernetesRuntimeChoiceTest.KubernetesRuntime.class)
class KubernetesRuntimeChoiceTest {

    public static class KubernetesRuntime implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "tclab.runtime",
                    "kubernetes",
                    "quarkus.kubernetes-client.api-server-url",
                    "http://127.0.0.1:9",
                    "quarkus.kubernetes-client.request-retry-backoff-limit",
                    "0");
        }
    }

    @Inject
    RuntimeAdapter runtime;

    @Test
    void shouldRunLabsOnKubernetesAndNeverBuildTheDockerClient() {
        assertThat(ClientProxy.unwrap(runtime)).isInstanceOf(KernelChoice.class);
        assertThat(((KernelChoice) ClientProxy.unwrap(runtime)).host()).isInstanceOf(KubernetesLabRuntime.class);
        assertThat(runtime.engine().reachable()).isFalse();
        assertThat(runtime.engine().endpoint()).isEqualTo("http://127.0.0.1:9/");

        assertThat(builtBeans())
                .as("beans built so far")
                .noneMatch(name -> name.contains("dockerjava")
                        || name.contains("DockerLabRuntime")
                        || name.contains("DockerClient")
                        || name.contains("UmlLabRuntime") && !name.contains("KubernetesUmlLabRuntime"));
        assertThat(builtBeans()).anyMatch(name -> name.contains("KubernetesLabRuntime"));
    }

    @Test
    void shouldStartALessonWhoseKernelIsUmlAsAKubernetesUmlLab() {
        var twoNode = dev.tclab.lab.TestTopologies.load("two-node");
        var uml = new dev.tclab.runtime.topology.Topology(
                twoNode.name(), twoNode.nodes(), twoNode.links(), twoNode.probes(), Topology.Kernel.UML);

        assertThatThrownBy(() ->
                        runtime.start(new LabSpec("choice-uml-1", uml, "learner", "two-node"), (stage, detail) -> {}))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessageStartingWith("cannot reach the Kubernetes API server");
        assertThat(builtBeans()).anyMatch(name -> name.contains("KubernetesUmlLabRuntime"));
        assertThat(builtBeans()).noneMatch(name -> name.contains("dev.tclab.runtime.uml.UmlLabRuntime"));
    }

    /** Every application-scoped and singleton bean with an instance, by its types. */
    static Stream<String> builtBeansOf(Class<? extends java.lang.annotation.Annotation> scope) {
        return Arc.container().getActiveContext(scope).getState().getContextualInstances().keySet().stream()
                .map(bean -> ((InjectableBean<?>) bean).getTypes().toString());
    }

    private static java.util.List<String> builtBeans() {
        return Stream.concat(builtBeansOf(ApplicationScoped.class), builtBeansOf(Singleton.class))
                .toList();
    }
}
