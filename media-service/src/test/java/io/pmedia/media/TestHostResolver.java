package io.pmedia.media;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import io.pmedia.common.net.Cidr;
import io.pmedia.common.net.HostResolver;

/**
 * The resolver seam: names that resolve to private or metadata addresses, without any traffic going there. Other
 * names resolve as usual.
 */
@Singleton
public class TestHostResolver implements HostResolver {

    static final Map<String, String> NAMES = Map.of(
            "assets.internal.example", "10.0.0.5",
            "metadata.cloud.example", "169.254.169.254");

    @Override
    public List<InetAddress> resolve(String host) throws UnknownHostException {
        String address = NAMES.get(host);
        if (address != null) {
            return List.of(InetAddress.getByAddress(host, Cidr.literal(address)));
        }
        return List.of(InetAddress.getAllByName(host));
    }
}
