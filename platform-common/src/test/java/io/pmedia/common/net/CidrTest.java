package io.pmedia.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CidrTest {

    @Test
    void rangeContainsItsAddressesOnly() {
        Cidr range = Cidr.parse("10.0.0.0/8");
        assertThat(range.contains(Cidr.literal("10.255.1.2"))).isTrue();
        assertThat(range.contains(Cidr.literal("11.0.0.1"))).isFalse();
        assertThat(range.contains(Cidr.literal("::1"))).isFalse();
    }

    @Test
    void singleAddressIsANetworkOfOne() {
        Cidr one = Cidr.parse("203.0.113.7");
        assertThat(one.contains(Cidr.literal("203.0.113.7"))).isTrue();
        assertThat(one.contains(Cidr.literal("203.0.113.8"))).isFalse();
    }

    @Test
    void ipv6RangesWork() {
        Cidr range = Cidr.parse("2001:db8::/32");
        assertThat(range.contains(Cidr.literal("2001:db8:ffff::1"))).isTrue();
        assertThat(range.contains(Cidr.literal("2001:db9::1"))).isFalse();
    }

    @Test
    void rejectsWhatIsNotARange() {
        assertThatThrownBy(() -> Cidr.parse("example.com")).hasMessageContaining("not an IP address");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/33")).hasMessageContaining("prefix longer than 32");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/x")).hasMessageContaining("invalid prefix");
    }
}
