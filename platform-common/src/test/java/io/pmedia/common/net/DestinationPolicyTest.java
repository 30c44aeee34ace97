package io.pmedia.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class DestinationPolicyTest {

    /** A resolver seam: names map to addresses without any DNS traffic. */
    private final Map<String, List<String>> dns = Map.of(
            "vendor.example", List.of("93.184.216.34"),
            "rebind.example", List.of("93.184.216.34", "10.0.0.7"),
            "metadata.example", List.of("169.254.169.254"));

    private final DestinationPolicy policy = new DestinationPolicy(AddressPolicy.strict(), host -> {
        List<String> addresses = dns.get(host);
        if (addresses == null) {
            throw new UnknownHostException(host);
        }
        return addresses.stream().map(a -> {
            try {
                return InetAddress.getByAddress(host, Cidr.literal(a));
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    });

    @Test
    void publicHostIsCheckedAndPinned() {
        var destination = policy.check(URI.create("https://vendor.example/hooks/video?x=1"));
        assertThat(destination.address().getHostAddress()).isEqualTo("93.184.216.34");
        assertThat(destination.port()).isEqualTo(443);
        assertThat(destination.tls()).isTrue();
        assertThat(destination.requestTarget()).isEqualTo("/hooks/video?x=1");
    }

    @Test
    void anyPrivateAnswerRefusesTheHost() {
        assertThatThrownBy(() -> policy.check(URI.create("http://rebind.example/")))
                .isInstanceOf(FetchException.class)
                .hasMessage("host 'rebind.example' does not resolve to a public address")
                .hasRootCauseMessage("rebind.example resolves to a private address")
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.REFUSED_ADDRESS);
    }

    @Test
    void metadataAndLiteralsAreRefused() {
        assertThatThrownBy(() -> policy.check(URI.create("http://metadata.example/latest/meta-data")))
                .hasRootCauseMessage("metadata.example resolves to a link-local or metadata address");
        assertThatThrownBy(() -> policy.check(URI.create("http://127.0.0.1:8080/")))
                .hasMessage("host '127.0.0.1' does not resolve to a public address")
                .hasRootCauseMessage("127.0.0.1 resolves to a loopback address");
        assertThatThrownBy(() -> policy.check(URI.create("http://[::1]/"))).rootCause().hasMessageContaining(
                "loopback");
    }

    @Test
    void everyFormABrowserTakesForAnIpv4AddressIsCheckedAsThatAddress() {
        for (String host : List.of("0x7f000001", "0X7F000001", "2130706433", "0177.0.0.1")) {
            assertThatThrownBy(() -> policy.check(URI.create("http://" + host + ":18777/"))).as(host)
                    .hasRootCauseMessage(host + " resolves to a loopback address")
                    .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.REFUSED_ADDRESS);
        }
        assertThatThrownBy(() -> policy.check(URI.create("http://0xa9fea9fe/")))
                .rootCause().hasMessageContaining("link-local");
        for (String host : List.of("0177.1", "127.1", "127.0.1", "0x7f.1", "0x7f.0.0.0x1", "127.0.0.1.")) {
            assertThat(DestinationPolicy.endsInANumber(host)).as(host).isTrue();
            assertThat(DestinationPolicy.whatwgIpv4(host)).as(host).containsExactly(127, 0, 0, 1);
            assertThatThrownBy(() -> policy.check(URI.create("http://" + host + "/"))).as(host)
                    .isInstanceOf(FetchException.class);
        }
        assertThat(DestinationPolicy.whatwgIpv4("0x5db8d822")).containsExactly(93, 184, 216, 34);
        assertThat(DestinationPolicy.endsInANumber("vendor.example")).isFalse();
        assertThat(DestinationPolicy.endsInANumber("a.0x")).isTrue();
        for (String host : List.of("1.2.3.4.5", "256.1.1.1", "0x100000000", "09.1", "1.0x1g", "99999999999")) {
            assertThat(DestinationPolicy.whatwgIpv4(host)).as(host).isNull();
        }
        assertThatThrownBy(() -> policy.check(URI.create("http://99999999999/")))
                .hasMessageContaining("is not an IPv4 address")
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.BAD_URL);
    }

    @Test
    void onlyHttpUrlsWithoutCredentials() {
        assertThatThrownBy(() -> DestinationPolicy.parse("file:///etc/passwd")).hasMessageContaining("http(s)");
        assertThatThrownBy(() -> DestinationPolicy.parse("gopher://vendor.example/")).hasMessageContaining("http(s)");
        assertThatThrownBy(() -> DestinationPolicy.parse("https://user:pw@vendor.example/"))
                .hasMessageContaining("credentials");
        assertThatThrownBy(() -> DestinationPolicy.parse("not a url")).isInstanceOf(FetchException.class);
        for (String port : new String[]{"http://127.0.0.1:99999/", "https://vendor.example:70000/x",
                "https://vendor.example:0/"}) {
            assertThatThrownBy(() -> DestinationPolicy.parse(port)).as(port).hasMessageContaining("no valid port");
        }
        assertThat(DestinationPolicy.parse("https://vendor.example:65535/x").getPort()).isEqualTo(65535);
    }

    @Test
    void unresolvableHostIsReported() {
        // The same words as a refused address: which internal names exist is not the vendor's to learn.
        assertThatThrownBy(() -> policy.check(URI.create("https://nowhere.example/")))
                .hasMessage("host 'nowhere.example' does not resolve to a public address")
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.UNRESOLVABLE);
    }
}
