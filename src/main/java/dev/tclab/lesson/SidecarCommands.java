package dev.tclab.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.yaml.FileProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A check's {@code command} that reads the node's files or processes. Since checks measure from the node's sidecar
 * (docs/checks.md, "Measurements"), such a command runs beside the node's network but in a filesystem and PID
 * namespace of its own: it reads the sidecar's {@code /tmp}, not the learner's, and its {@code pgrep} sees no process
 * of the node. A path counts when the lesson's own commands (cmd, solution, lab.yml {@code exec}) name it too, so a
 * check that keeps a file of its own in the sidecar's {@code /tmp} is left alone.
 */
final class SidecarCommands {

    /** A path in a place a node's files live: its tmpfs mounts, a home, or the usual data folders. */
    private static final Pattern NODE_PATH =
            Pattern.compile("(?<![\\w.~/-])(~/\\S*|/(?:root|tmp|home|run|var|opt|srv|mnt)(?![\\w.-])\\S*)");
    /** A program that lists or signals processes, where a command starts. */
    private static final Pattern PROCESS_TOOL =
            Pattern.compile("(?:^|[|;&(`]|\\$\\()\\s*(ps|pgrep|pidof|pkill|killall)(?![\\w.-])");

    private static final String WHY = ": a check's command runs in the node's measurement sidecar, which shares the"
            + " node's network (interfaces, qdiscs, sockets) but not its files or processes (docs/checks.md,"
            + " \"Measurements\"). Measure the network instead, e.g. with `tc`, `ip` or `ss`";

    private SidecarCommands() {}

    /**
     * @param nodePaths where the lesson's own commands name each path of a node's files, by path
     *                  ({@code classes/steps/02-save.md:5}, {@code lab.yml exec of node client})
     */
    static List<FileProblem> warnings(List<CheckMeasurement> measurements, Map<String, String> nodePaths) {
        List<FileProblem> warnings = new ArrayList<>();
        for (CheckMeasurement m : measurements) {
            JsonNode command = m.kind("command");
            if (command.isTextual()) {
                what(command.asText(), nodePaths)
                        .ifPresent(what -> warnings.add(new FileProblem(
                                m.check().file(), m.line("command"), "", m.title("command") + what + WHY)));
            }
        }
        return warnings;
    }

    private static Optional<String> what(String command, Map<String, String> nodePaths) {
        for (String path : paths(command)) {
            if (nodePaths.containsKey(path)) {
                return Optional.of(" reads " + path + ", which the lesson's commands put in the node ("
                        + nodePaths.get(path) + "), but it finds the sidecar's " + path + " instead");
            }
        }
        Matcher tool = PROCESS_TOOL.matcher(command);
        return tool.find()
                ? Optional.of(" runs `" + tool.group(1) + "`, which sees the sidecar's processes, not the node's")
                : Optional.empty();
    }

    /** The paths of a node's files that a command names, without the quotes or separators around them. */
    static List<String> paths(String command) {
        List<String> paths = new ArrayList<>();
        Matcher m = NODE_PATH.matcher(command);
        while (m.find()) {
            paths.add(m.group(1).replaceAll("[;'\")|&`]+$", ""));
        }
        return paths;
    }
}
