package dev.tclab.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeDiskCapsTest {

    @Test
    void shouldKeepTheConfiguredCapsWhenTheNodesShareOfHalfTheKernelHoldsThem() {
        assertThat(NodeDiskCaps.fit(64, 16, 8, 512, 2)).isEqualTo(new NodeDiskCaps(64, 16, 8));
    }

    @Test
    void shouldScaleEveryCapAlikeSoThatAllNodesFitInHalfTheKernelsMemory() {
        NodeDiskCaps two = NodeDiskCaps.fit(64, 16, 8, 192, 2);
        NodeDiskCaps four = NodeDiskCaps.fit(64, 16, 8, 192, 4);

        assertThat(two).isEqualTo(new NodeDiskCaps(34, 8, 4));
        assertThat(four).isEqualTo(new NodeDiskCaps(17, 4, 2));
        assertThat(2 * two.totalMib()).isLessThanOrEqualTo(96);
        assertThat(4 * four.totalMib()).isLessThanOrEqualTo(96);
    }

    @Test
    void shouldLeaveEachCapAtLeastOneMiB() {
        assertThat(NodeDiskCaps.fit(64, 16, 8, 64, 40)).isEqualTo(new NodeDiskCaps(1, 1, 1));
    }
}
