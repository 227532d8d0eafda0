// GPU product names (H100, MI300X, RTX 5090) to the arch Triton compiles for
// them, from data/hw/products.json, each mapping with its source. hw::Target
// reads them after the arch spellings.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tilexform::hw {

struct Product {
  std::string name;   // as the vendor writes it: "RTX 5090"
  std::string arch;   // canonical: "sm_120"
  std::string source; // where the mapping is stated
};

/// Every product of the table, in its order.
const std::vector<Product> &products();

/// The product `text` names: its letters and digits compared without case,
/// spaces, hyphens or underscores, a leading vendor or family word dropped
/// (NVIDIA, GeForce, Tesla, AMD, Instinct, Radeon), and a variant after it
/// allowed ("H100 SXM5", "MI300X-OAM"); the longest name wins. None when no
/// product matches.
std::optional<Product> findProduct(const std::string &text);

} // namespace tilexform::hw
