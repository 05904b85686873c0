package org.overloadcontrol.sample;

import java.util.ArrayList;
import java.util.List;

/** The sample shop's fixed list of products (an outdoor-gear shop), ids 1 to 30. */
final class StandardProducts {

  private StandardProducts() {}

  // name, description, price in cents; six per category, in id order.
  private static final Object[][] TENTS = {
    {"Ridge Tent", "A two-person ridge tent for summer camping", 12900L},
    {"Dome Tent", "A freestanding three-person dome tent with a porch", 18900L},
    {"Tunnel Tent", "A four-season tunnel tent that stands up to wind", 32900L},
    {"Ultralight Tarp", "A silnylon tarp shelter under 400 grams", 8900L},
    {"Family Tent", "A six-person family tent with two bedrooms", 44900L},
    {"Bivy Bag", "A waterproof breathable bivouac bag for one", 15900L},
  };
  private static final Object[][] PACKS = {
    {"Day Pack 20", "A 20 litre day pack with a hydration sleeve", 5900L},
    {"Trek Pack 45", "A 45 litre trekking backpack with an adjustable back", 14900L},
    {"Expedition Pack 70", "A 70 litre expedition backpack for heavy loads", 23900L},
    {"Running Vest", "A light running vest with two soft flasks", 7900L},
    {"Dry Bag Set", "Three waterproof roll-top dry bags", 2900L},
    {"Camera Pack", "A padded backpack for a camera and lenses", 11900L},
  };
  private static final Object[][] FOOTWEAR = {
    {"Trail Runner", "A grippy trail running shoe with a rock plate", 12900L},
    {"Hiking Boot", "A waterproof leather hiking boot for long trails", 17900L},
    {"Approach Shoe", "A sticky-rubber approach shoe for scrambling", 13900L},
    {"Camp Sandal", "A light sandal for the evening at camp", 3900L},
    {"Gaiters", "Waterproof gaiters that keep snow out of boots", 4400L},
    {"Wool Socks", "Two pairs of merino wool hiking socks", 2400L},
  };
  private static final Object[][] CLOTHING = {
    {"Rain Jacket", "A waterproof breathable rain jacket with a hood", 19900L},
    {"Down Jacket", "A warm down jacket that packs into its pocket", 22900L},
    {"Fleece Pullover", "A midweight fleece pullover for cool evenings", 6900L},
    {"Merino Base Layer", "A merino wool long-sleeve base layer", 7400L},
    {"Hiking Trousers", "Stretch hiking trousers with zip pockets", 8900L},
    {"Sun Hat", "A wide-brim sun hat with a chin strap", 2900L},
  };
  private static final Object[][] COOKING = {
    {"Gas Stove", "A compact gas stove with a piezo igniter", 4900L},
    {"Titanium Pot", "A 750 ml titanium pot that doubles as a mug", 3900L},
    {"Water Filter", "A squeeze water filter for lakes and streams", 3500L},
    {"Spork", "A titanium spork, the only cutlery you need", 1200L},
    {"Cooler Box", "A 25 litre cooler box that keeps ice for days", 9900L},
    {"Coffee Press", "A camp coffee press made of steel", 2900L},
  };

  static List<Product> all() {
    List<Product> products = new ArrayList<>();
    add(products, "tents", TENTS);
    add(products, "backpacks", PACKS);
    add(products, "footwear", FOOTWEAR);
    add(products, "clothing", CLOTHING);
    add(products, "cooking", COOKING);
    return products;
  }

  private static void add(List<Product> products, String category, Object[][] rows) {
    for (Object[] row : rows) {
      products.add(
          new Product(
              products.size() + 1, (String) row[0], category, (String) row[1], (Long) row[2]));
    }
  }
}
