package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.agent.SidecarAgent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The agents of the sidecars the app ran commands in, attached on the first command and kept while they answer.
 * A sidecar made before agents existed (a lab adopted across an upgrade) has none: its commands run by exec, as do
 * the commands of an agent that went away, until a new one attaches.
 */
final class SidecarAgents {

    private static final Logger LOG = Logger.getLogger(SidecarAgents.class);

    private final DockerClient docker;
    /** By sidecar container name; empty for a sidecar that runs no agent. */
    private final Map<String, Optional<SidecarAgent>> agents = new ConcurrentHashMap<>();

    SidecarAgents(DockerClient docker) {
        this.docker = docker;
    }

    /** Runs {@code command} in the sidecar as {@link DockerExec#run} does, through its agent when it has one. */
    ExecResult run(String sidecar, List<String> command, Duration timeout) {
        Optional<SidecarAgent> agent = agents.computeIfAbsent(sidecar, this::attach);
        if (agent.isPresent()) {
            try {
                return agent.get().run(command, timeout);
            } catch (SidecarAgent.Gone e) {
                // The engine or the container went away, or the stream broke: the exec below meets the same fate and
                // says which, or runs the command (again, if it had run before the agent went: reads and one-off
                // servers both tolerate that). The next command attaches a new agent.
                LOG.debugf("agent of %s is gone (%s); running by exec", sidecar, e.getMessage());
                agents.remove(sidecar, agent);
                agent.get().close();
            }
        }
        return DockerExec.run(docker, sidecar, command, timeout);
    }

    /** Forgets the agents of a lab's sidecars, closing their streams. */
    void forget(String labId) {
        String prefix = NodeContainers.name(labId, "");
        agents.keySet().stream()
                .filter(name -> name.startsWith(prefix))
                .toList()
                .forEach(name -> {
                    Optional<SidecarAgent> agent = agents.remove(name);
                    if (agent != null) {
                        agent.ifPresent(SidecarAgent::close);
                    }
                });
    }

    /** Closes every agent's stream; for shutdown. */
    void closeAll() {
        agents.values().forEach(a -> a.ifPresent(SidecarAgent::close));
        agents.clear();
    }

    private Optional<SidecarAgent> attach(String sidecar) {
        Map<String, String> labels =
                docker.inspectContainerCmd(sidecar).exec().getConfig().getLabels();
        if (labels == null || !Labels.AGENT_VERSION.equals(labels.get(Labels.AGENT))) {
            return Optional.empty();
        }
        return Optional.of(SidecarAgent.attached(sidecar, DockerAttach.to(docker, sidecar)));
    }
}
