package dev.tclab.tc;

import java.util.List;

/**
 * One entry of {@code tc filter show dev X [parent P]}. u32 prints bookkeeping entries (the chain and the hash
 * table) next to its rules; {@link #isRule()} tells them apart.
 *
 * @param parent   the parent tc printed ({@code 1:}); null when the command named the parent itself
 * @param handle   u32's {@code fh} ({@code 800::800}) or another classifier's {@code handle}; null on header lines
 * @param flowid   the class the filter sends packets to ({@code 1:10}); null when none
 * @param matches  u32 selectors as tc prints them ({@code 0a000002/ffffffff at 16})
 */
public record TcFilter(
        String kind,
        String parent,
        String protocol,
        int pref,
        Integer chain,
        String handle,
        String flowid,
        List<String> matches,
        List<FilterAction> actions) {

    /** A rule that classifies packets, as opposed to u32's chain and hash-table header entries. */
    public boolean isRule() {
        if (handle == null) {
            return false;
        }
        if ("u32".equals(kind)) {
            // u32 node handles are htid:hash:node; a hash table alone is "800:" and has no node part.
            String[] parts = handle.split(":", -1);
            return parts.length == 3 && !parts[2].isEmpty() && !parts[2].equals("0");
        }
        return true;
    }

    /** The device a {@code mirred ... redirect} action sends packets to, or null. */
    public String redirectDev() {
        return actions.stream()
                .filter(a -> "mirred".equals(a.kind()) && "redirect".equals(a.verb()))
                .map(FilterAction::targetDev)
                .findFirst()
                .orElse(null);
    }
}
