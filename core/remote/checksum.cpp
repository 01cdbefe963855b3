#include "remote/checksum.h"

#include <openssl/evp.h>

#include <array>
#include <memory>

namespace osprey::remote {
namespace {

struct DigestDeleter {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};
using Digest = std::unique_ptr<EVP_MD_CTX, DigestDeleter>;

std::string hex(const unsigned char* bytes, unsigned length) {
    static const char* kDigits = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned i = 0; i < length; ++i) {
        out += kDigits[bytes[i] >> 4];
        out += kDigits[bytes[i] & 15];
    }
    return out;
}

} // namespace

Expected<std::string> sha256StreamHex(std::FILE* file) {
    Digest context(EVP_MD_CTX_new());
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
        return fail("SHA-256 is not available");
    std::array<unsigned char, 1 << 16> buffer{};
    size_t read = 0;
    while ((read = std::fread(buffer.data(), 1, buffer.size(), file)) > 0)
        EVP_DigestUpdate(context.get(), buffer.data(), read);
    if (std::ferror(file))
        return fail("read error while hashing");
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned length = 0;
    EVP_DigestFinal_ex(context.get(), digest.data(), &length);
    std::rewind(file);
    return hex(digest.data(), length);
}

Expected<std::string> sha256FileHex(const std::filesystem::path& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file)
        return fail(path.string() + ": cannot open for hashing");
    auto digest = sha256StreamHex(file.get());
    if (!digest)
        return fail(path.string() + ": " + digest.message());
    return digest;
}

std::string sha256Hex(const std::string& bytes) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr);
    return hex(digest.data(), length);
}

} // namespace osprey::remote
