#pragma once
// Expected<T>: the result of a core call that can fail on input. Carries either a value or an Error
// whose message names the file and line or the field, so it can be shown to the user as is.

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace osprey {

/// A failure that a user can act on: what happened, where (file:line or field), and what to do.
struct Error {
    std::string message;
    /// Machine-readable kind for callers that branch on it ("missing", "locked", "corrupt", ...).
    std::string code;
};

/// Marker used to construct a failed Expected: `return fail("x.json: line 3: ...")`.
struct Unexpected {
    Error error;
};

inline Unexpected fail(std::string message, std::string code = {}) {
    return Unexpected{Error{std::move(message), std::move(code)}};
}
inline Unexpected fail(Error error) {
    return Unexpected{std::move(error)};
}

template <typename T> class [[nodiscard]] Expected {
public:
    Expected(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
    Expected(Unexpected failure) : m_state(std::in_place_index<1>, std::move(failure.error)) {}

    bool hasValue() const { return m_state.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T& value() & {
        assert(hasValue());
        return std::get<0>(m_state);
    }
    const T& value() const& {
        assert(hasValue());
        return std::get<0>(m_state);
    }
    // By value, so that `for (auto& x : f().value())` does not bind to a destroyed temporary.
    T value() && {
        assert(hasValue());
        return std::get<0>(std::move(m_state));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const {
        assert(!hasValue());
        return std::get<1>(m_state);
    }
    const std::string& message() const { return error().message; }

private:
    std::variant<T, Error> m_state;
};

/// Expected<void>: success or an Error.
template <> class [[nodiscard]] Expected<void> {
public:
    Expected() = default;
    Expected(Unexpected failure) : m_error(std::move(failure.error)) {}

    bool hasValue() const { return !m_error.has_value(); }
    explicit operator bool() const { return hasValue(); }
    const Error& error() const {
        assert(m_error);
        return *m_error;
    }
    const std::string& message() const { return error().message; }

private:
    std::optional<Error> m_error;
};

using Status = Expected<void>;

} // namespace osprey
