package com.example.data

import java.util.UUID
import kotlinx.coroutines.flow.Flow

const val PAGE_SIZE = 50

/** A stored user. */
data class User(val id: UUID, val name: String)

interface Repository<T> {
    fun find(id: UUID): T?
}

/**
 * Keeps users in memory. Used by tests.
 */
class MemoryRepository : Repository<User> {
    private val users = mutableMapOf<UUID, User>()

    override fun find(id: UUID): User? = users[id]

    fun save(user: User) {
        users[user.id] = normalize(user)
    }
}

object Registry {
    fun default(): MemoryRepository = MemoryRepository()
}

fun normalize(user: User): User {
    return user.copy(name = user.name.trim())
}
