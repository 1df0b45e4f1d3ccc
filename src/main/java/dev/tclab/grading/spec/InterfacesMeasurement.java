package dev.tclab.grading.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.runtime.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code interfaces: { dev }}: the link counters of one device (or all), from {@code ip -s -j link show}:
 * {@code by_dev[eth1].tx_bytes}, {@code rx_packets}, {@code tx_dropped}, ... plus {@code mtu}, {@code operstate},
 * {@code qdisc}.
 */
public record InterfacesMeasurement(Common common, String dev) implements Measurement {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<String, Unit> FIELDS =
            Map.of("all", Unit.NONE, "count", Unit.NONE, "by_dev", Unit.NONE, Counters.WINDOW, Unit.S);
    private static final List<String> STATS = List.of("bytes", "packets", "errors", "dropped");

    /** {@code interfaces:} as written; absent ({@code interfaces:} alone) reads every device. */
    public record Options(String dev) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new InterfacesMeasurement(common, options == null ? null : options.dev());
    }

    @Override
    public String kind() {
        return "interfaces";
    }

    @Override
    public List<String> argv() {
        return dev == null
                ? List.of("ip", "-s", "-j", "link", "show")
                : List.of("ip", "-s", "-j", "link", "show", "dev", dev);
    }

    @Override
    public Duration timeout() {
        return TcMeasurement.TC_TIMEOUT;
    }

    @Override
    public MeasurementOutcome read(ExecResult exec) {
        String raw = OutputReader.excerptOfRaw(exec);
        if (exec.exitCode() != 0) {
            return OutputReader.failed(raw, "ip failed: " + OutputReader.firstLine(exec));
        }
        JsonNode links;
        try {
            links = MAPPER.readTree(exec.stdout());
        } catch (JsonProcessingException e) {
            return OutputReader.failed(
                    raw,
                    "the output could not be read: expected ip's JSON, found " + OutputReader.excerpt(exec.stdout()));
        }
        if (links == null || !links.isArray()) {
            return OutputReader.failed(raw, "the output could not be read: expected a list of links");
        }
        List<Object> all = new ArrayList<>();
        Map<String, Object> byDev = new LinkedHashMap<>();
        for (JsonNode link : links) {
            Map<String, Object> node = new LinkedHashMap<>();
            String name = link.path("ifname").asText();
            node.put("name", name);
            node.put("mtu", new Measure(link.path("mtu").asDouble(), Unit.BYTES));
            node.put("operstate", link.path("operstate").asText());
            node.put("qdisc", link.path("qdisc").asText());
            for (String direction : List.of("rx", "tx")) {
                JsonNode stats = link.path("stats64").path(direction);
                for (String stat : STATS) {
                    node.put(
                            direction + "_" + stat,
                            new Measure(stats.path(stat).asDouble(), stat.equals("bytes") ? Unit.BYTES : Unit.NONE));
                }
            }
            all.add(node);
            byDev.put(name, node);
        }
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("all", all);
        tree.put("count", new Measure(all.size(), Unit.NONE));
        tree.put("by_dev", byDev);
        return OutputReader.ok(tree, raw);
    }

    @Override
    public Map<String, Unit> fields() {
        return FIELDS;
    }

    @Override
    public Optional<Unit> unitAt(ValuePath path) {
        return Counters.unitAt(path);
    }
}
