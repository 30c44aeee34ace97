package io.pmedia.common.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Turns a host name into addresses. The seam lets tests map names to any address without sending traffic there;
 * production uses the JVM resolver. Blocking: call it off the event loop.
 */
@FunctionalInterface
public interface HostResolver {

    List<InetAddress> resolve(String host) throws UnknownHostException;

    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));
}
