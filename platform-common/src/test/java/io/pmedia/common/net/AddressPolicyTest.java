package io.pmedia.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    private final AddressPolicy strict = AddressPolicy.strict();

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.1.1",
            "169.254.169.254", "100.100.100.200", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.2.10",
            "198.18.0.1", "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::5", "ff02::1", "::ffff:127.0.0.1",
            "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2002:a00:1::", "::7f00:1",
            "2001:db8::1"})
    void refusesNonPublicAddresses(String literal) throws Exception {
        assertThat(strict.refusal(InetAddress.getByAddress(Cidr.literal(literal)))).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
            "2002:5db8:d822::", "64:ff9b::808:808"})
    void permitsPublicAddresses(String literal) throws Exception {
        assertThat(strict.refusal(InetAddress.getByAddress(Cidr.literal(literal)))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1", "::ffff:127.0.0.1"})
    void allowListPermitsLoopbackInLocalMode(String literal) throws Exception {
        AddressPolicy local = new AddressPolicy(List.of(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1/128")));
        assertThat(local.refusal(InetAddress.getByAddress(Cidr.literal(literal)))).isEmpty();
        assertThat(local.refusal(InetAddress.getByAddress(Cidr.literal("10.0.0.1")))).isPresent();
        assertThat(local.refusal(InetAddress.getByAddress(Cidr.literal("169.254.169.254")))).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "example.com", "1.2.3", "1.2.3.256", "fe80::1%eth0", ""})
    void literalNeverResolvesNames(String value) {
        assertThat(Cidr.literal(value)).isNull();
    }
}
