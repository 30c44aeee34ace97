package io.pmedia.gateway.service;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.net.Cidr;
import io.pmedia.gateway.config.GatewayConfig;
import io.vertx.core.http.HttpServerRequest;

/**
 * The caller's IP address: the TCP peer, unless the peer is a configured trusted proxy, in which case the
 * right-most {@code X-Forwarded-For} entry that is not itself a trusted proxy. A header sent by anybody else
 * changes nothing.
 */
@ApplicationScoped
public class CallerAddress {

    private final List<Cidr> trustedProxies;

    public CallerAddress(GatewayConfig config) {
        this.trustedProxies = config.gateway().trustedProxies().orElse(List.of()).stream()
                .filter(value -> !value.isBlank())
                .map(Cidr::parse)
                .toList();
    }

    public String of(HttpServerRequest request) {
        String peer = request.remoteAddress() == null ? "" : request.remoteAddress().hostAddress();
        if (!isTrusted(peer)) {
            return normalize(peer);
        }
        String forwarded = request.getHeader("X-Forwarded-For");
        if (forwarded == null || forwarded.isBlank()) {
            return normalize(peer);
        }
        String[] hops = forwarded.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].trim();
            if (Cidr.literal(hop) == null) {
                break;
            }
            if (!isTrusted(hop)) {
                return normalize(hop);
            }
        }
        return normalize(peer);
    }

    /** Whether {@code address} (a literal) falls in one of {@code allowed}. */
    public static boolean allowed(String address, List<String> allowed) {
        byte[] bytes = Cidr.literal(address);
        if (bytes == null) {
            return false;
        }
        for (String entry : allowed) {
            if (Cidr.parse(entry).contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    private boolean isTrusted(String address) {
        byte[] bytes = Cidr.literal(address);
        return bytes != null && trustedProxies.stream().anyMatch(proxy -> proxy.contains(bytes));
    }

    /** {@code ::ffff:127.0.0.1} and {@code 127.0.0.1} are one caller. */
    private static String normalize(String address) {
        byte[] bytes = Cidr.literal(address);
        if (bytes == null) {
            return address;
        }
        try {
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
