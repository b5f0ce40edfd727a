import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j Community in-process with a Bolt connector on loopback. Started by src/graph/embedded-server.ts through
 * Java's single-file source launcher, so no build step is needed: the classpath is the jars that Maven resolved.
 *
 * Arguments: --home DIR --port N [--host 127.0.0.1] [--pagecache 512m]
 * The process prints "citegraph-neo4j ready" once the database is available and shuts the database down cleanly on
 * SIGTERM/SIGINT (a JVM shutdown hook), so the store is never left in need of recovery by a normal stop.
 */
public final class EmbeddedNeo4j {
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Path home = Path.of(opts.getOrDefault("home", ".data/neo4j")).toAbsolutePath();
        String host = opts.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(opts.getOrDefault("port", "7687"));
        String pagecache = opts.getOrDefault("pagecache", "512m");
        Files.createDirectories(home);

        DatabaseManagementService service = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(host, port))
                // Loopback only and no users to manage: the embedded default is a developer database.
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.parse(pagecache))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                service.shutdown();
            } finally {
                stopped.countDown();
            }
        }, "citegraph-neo4j-shutdown"));

        // Touch the default database so that "ready" means queries will succeed.
        service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
        System.out.println("citegraph-neo4j ready bolt://" + host + ":" + port);
        System.out.flush();
        stopped.await();
    }
}
