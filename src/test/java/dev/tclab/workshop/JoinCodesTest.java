package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JoinCodesTest {

    @Test
    void codesHaveSixCharactersWithoutLookAlikes() {
        for (int i = 0; i < 1000; i++) {
            assertThat(JoinCodes.next())
                    .matches("[" + JoinCodes.ALPHABET + "]{6}")
                    .doesNotContain("0", "O", "1", "I", "L");
        }
        assertThat(JoinCodes.ALPHABET).doesNotContain("0", "O", "1", "I", "L", "8", "U", "V");
    }

    @Test
    void aTypedCodeIsNormalised() {
        assertThat(JoinCodes.normalise(" k7r-mqa ")).isEqualTo("K7RMQA");
        assertThat(JoinCodes.normalise(null)).isEmpty();
    }
}
