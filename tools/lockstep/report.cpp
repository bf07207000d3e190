// Report (see report.hpp).
#include "report.hpp"

#include <cstdio>

namespace lockstep::cli {

Report& Report::field(const std::string& key, std::string text, nlohmann::json value, bool line,
                      bool json) {
  if (line) {
    if (text.find(' ') != std::string::npos) text = "\"" + text + "\"";
    line_ += (line_.empty() ? "" : " ") + key + "=" + text;
  }
  if (json) json_.emplace_back(key, std::move(value));
  return *this;
}

Report& Report::add_json(const std::string& key, const nlohmann::json& value) {
  std::string t;
  if (value.is_string())
    t = value.get<std::string>();
  else if (value.is_boolean())
    t = value.get<bool>() ? "1" : "0";
  else if (value.is_number_integer())
    t = std::to_string(value.get<long long>());
  else if (value.is_number())
    t = text(value.get<double>());
  else
    t = value.dump();
  return field(key, t, value, true, true);
}

Report& Report::add_all(const nlohmann::json& j) {
  for (auto it = j.begin(); it != j.end(); ++it) add_json(it.key(), *it);
  return *this;
}

Report& Report::exact(const std::string& key, double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", value);
  return field(key, buf, value, true, true);
}

nlohmann::json Report::json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [key, value] : json_) j[key] = value;
  return j;
}

}  // namespace lockstep::cli
