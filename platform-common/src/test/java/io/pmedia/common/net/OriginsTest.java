package io.pmedia.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OriginsTest {

    @Test
    void theOriginOfAnHttpUrlIsItsSchemeHostAndPort() {
        assertThat(Origins.of("https://cdn.example.com/a/logo.png?x=1")).contains("https://cdn.example.com");
        assertThat(Origins.of(" HTTP://127.0.0.1:9000/pmedia/key ")).contains("http://127.0.0.1:9000");
        assertThat(Origins.of("http://[::1]:8080/")).contains("http://[::1]:8080");
    }

    @Test
    void anythingElseHasNone() {
        assertThat(Origins.of(null)).isEmpty();
        assertThat(Origins.of(" ")).isEmpty();
        assertThat(Origins.of("javascript:alert(1)")).isEmpty();
        assertThat(Origins.of("data:image/png;base64,AAAA")).isEmpty();
        assertThat(Origins.of("ftp://example.com/x")).isEmpty();
        assertThat(Origins.of("/relative/path")).isEmpty();
        assertThat(Origins.of("https://exa mple.com/")).isEmpty();
    }
}
