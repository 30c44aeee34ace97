package io.pmedia.media.render;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FilterGraphTest {

    @Test
    void valuesAreEscapedForBothParsers() {
        assertThat(FilterGraph.value("/tmp/a:b")).isEqualTo("/tmp/a\\\\:b");
        assertThat(FilterGraph.value("it's")).isEqualTo("it\\\\\\'s");
        assertThat(FilterGraph.value("between(t,1,2)")).isEqualTo("between(t\\,1\\,2)");
        assertThat(FilterGraph.value("[x];y")).isEqualTo("\\[x\\]\\;y");
    }

    @Test
    void numbersAndColoursAreFormattedForFfmpeg() {
        assertThat(FilterGraph.number(3)).isEqualTo("3");
        assertThat(FilterGraph.number(3.25)).isEqualTo("3.250");
        assertThat(FilterGraph.color("#1d3557")).isEqualTo("0x1d3557");
        assertThat(FilterGraph.color("#1d355799")).isEqualTo("0x1d355799");
    }
}
