package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The join link on the projector: the class's address when the host set one, else the host browser's. */
class JoinLinksTest {

    private static final URI HOST_BROWSED = URI.create("http://127.0.0.1:8080/");

    @Test
    void shouldUseTheAddressTheHostBrowsedFromWhenNoneIsSet() {
        assertThat(new JoinLinks(Optional.empty()).of("K7Q2MX", HOST_BROWSED))
                .isEqualTo("http://127.0.0.1:8080/join/K7Q2MX");
    }

    @Test
    void shouldUseThePublicAddressWhenSet() {
        assertThat(new JoinLinks(Optional.of("http://10.1.2.3:8080")).of("K7Q2MX", HOST_BROWSED))
                .isEqualTo("http://10.1.2.3:8080/join/K7Q2MX");
        assertThat(new JoinLinks(Optional.of(" https://lab.example.org/ ")).of("K7Q2MX", HOST_BROWSED))
                .isEqualTo("https://lab.example.org/join/K7Q2MX");
    }

    @Test
    void shouldRefuseAnAddressLearnersCannotOpenSayingWhatToGive() {
        assertThatThrownBy(() -> new JoinLinks(Optional.of("10.1.2.3:8080")))
                .hasMessageContaining("tclab.workshop.public-url=10.1.2.3:8080 is not an address learners can open")
                .hasMessageContaining("http://10.1.2.3:8080");
        assertThatThrownBy(() -> new JoinLinks(Optional.of("http://bad host/"))).hasMessageContaining("leave it unset");
    }
}
