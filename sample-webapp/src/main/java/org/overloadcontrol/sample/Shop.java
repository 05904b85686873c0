package org.overloadcontrol.sample;

/**
 * Everything the shop's pages share, built once when the web application starts: settings,
 * catalogue, simulated database, product images and the order-id sequence. Stored as the
 * servlet-context attribute {@link #ATTRIBUTE} by {@link ShopListener}.
 */
public final class Shop {

  /** The servlet-context attribute holding the running shop. */
  public static final String ATTRIBUTE = Shop.class.getName();

  private final ShopSettings settings;
  private final Catalogue catalogue;
  private final Database database;
  private final ProductImages images;
  private final OrderIds orderIds = new OrderIds();

  public Shop(ShopSettings settings, Catalogue catalogue, Database database, ProductImages images) {
    this.settings = settings;
    this.catalogue = catalogue;
    this.database = database;
    this.images = images;
  }

  /** The shop with the standard catalogue and a real (sleeping) database pool. */
  public static Shop start(ShopSettings settings) {
    Catalogue catalogue = Catalogue.standard();
    return new Shop(
        settings,
        catalogue,
        new Database(settings.dbConnections(), settings.dbWait()),
        ProductImages.draw(catalogue.products(), catalogue.categories()));
  }

  public ShopSettings settings() {
    return settings;
  }

  public Catalogue catalogue() {
    return catalogue;
  }

  public Database database() {
    return database;
  }

  public ProductImages images() {
    return images;
  }

  public OrderIds orderIds() {
    return orderIds;
  }
}
