package dev.tclab.tc;

/**
 * One class from {@code tc -s class show dev X}. Rates are in bit/s and sizes in bytes, whichever format tc
 * printed. Fields a kind does not have (everything after {@code leaf} for a tbf's class, say) are null.
 *
 * @param kind     e.g. {@code htb}
 * @param classId  e.g. {@code 1:10}
 * @param parent   {@code root} or the parent's id ({@code 1:1}, or a qdisc handle such as {@code 20:})
 * @param leaf     handle of the qdisc attached to this class, e.g. {@code 10:}; null when tc shows none
 * @param stats    the common counters ({@code Sent ... backlog ...}); all zero when tc printed no statistics
 */
public record TcClass(
        String kind,
        String classId,
        String parent,
        String leaf,
        Integer prio,
        Long quantum,
        Long rateBitsPerSecond,
        Long ceilBitsPerSecond,
        Long burstBytes,
        Long cburstBytes,
        QdiscStats stats,
        Long lended,
        Long borrowed,
        Long giants,
        Long tokens,
        Long ctokens) {

    public boolean isRoot() {
        return "root".equals(parent);
    }
}
